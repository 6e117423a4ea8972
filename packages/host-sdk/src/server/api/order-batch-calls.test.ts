import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../errors/api-error.js";
import { ApiNetworkError } from "../errors/api-network-error.js";
import { answerJson, type LoopbackServer, startLoopbackServer } from "../test-loopback.js";
import type { TokenProvider } from "../tokens/token-provider.js";
import { createApiClient } from "./api-client.js";
import type { OrderBatchResult } from "./api-shapes.js";

const tokens: TokenProvider = { getToken: async () => "tok-1", invalidate: async () => undefined };

const PLACED = {
  batch_id: "bat_1",
  name: null,
  status: "processing",
  rows: 2,
  accepted: 2,
  rejected: 0,
  ignored_columns: [],
  rejections: [],
};

const result = (row: number) => ({ row, status: "complete", order_id: `ord_${row}` });

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

describe("order batch calls over loopback HTTP", () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("sends a CSV book as text/csv with name and callback_url as query parameters, retried with the same key", async () => {
    const bodies: string[] = [];
    server = await startLoopbackServer(async (request, response, index) => {
      bodies.push(await bodyOf(request));
      if (index === 0) response.socket?.destroy();
      else answerJson(response, PLACED, 202);
    });
    const api = createApiClient({ baseUrl: server.url, tokens, maxRetryDelayMs: 0 });
    const csv = "address,external_id\r\n1 Main St,POL-1\r\n";
    const placed = await api.createOrderBatch({ csv, name: "Renewals 2027", callback_url: "https://core.example/h" });
    expect(placed.batch_id).toBe("bat_1");
    expect(bodies).toEqual([csv, csv]);
    const [first, second] = server.requests;
    expect(first?.url).toBe("/v1/order-batches?name=Renewals+2027&callback_url=https%3A%2F%2Fcore.example%2Fh");
    expect(first?.headers["content-type"]).toBe("text/csv");
    expect(first?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.headers["idempotency-key"]).toBe(first?.headers["idempotency-key"]);
  });

  it("sends orders as JSON with the given Idempotency-Key", async () => {
    const bodies: string[] = [];
    server = await startLoopbackServer(async (request, response) => {
      bodies.push(await bodyOf(request));
      answerJson(response, PLACED, 202);
    });
    const api = createApiClient({ baseUrl: server.url, tokens });
    const orders = [{ address: "1 Main St", external_id: "POL-1" }];
    await api.createOrderBatch({ orders, name: "Book" }, { idempotencyKey: "import-7" });
    expect(JSON.parse(bodies[0] ?? "")).toEqual({ orders, name: "Book" });
    expect(server.requests[0]?.url).toBe("/v1/order-batches");
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
    expect(server.requests[0]?.headers["idempotency-key"]).toBe("import-7");
  });

  it("streams a CSV book from an async iterable, and sends it once: a reset or a 503 is not retried", async () => {
    const bodies: string[] = [];
    server = await startLoopbackServer(async (request, response, index) => {
      bodies.push(await bodyOf(request));
      if (index === 0) answerJson(response, PLACED, 202);
      else if (index === 1) response.socket?.destroy();
      else answerJson(response, { type: "about:blank", title: "Busy", status: 503, code: "unavailable" }, 503);
    });
    const api = createApiClient({ baseUrl: server.url, tokens, maxRetryDelayMs: 0 });
    const book = () => Readable.from(["address,external_id\r\n1 Ma", Buffer.from("in St,POL-1\r\n")]);
    expect((await api.createOrderBatch({ csv: book() })).batch_id).toBe("bat_1");
    expect(bodies).toEqual(["address,external_id\r\n1 Main St,POL-1\r\n"]);

    const reset = await api.createOrderBatch({ csv: book() }).catch((caught: unknown) => caught);
    expect(reset).toBeInstanceOf(ApiNetworkError);
    expect(reset).toMatchObject({ code: "api_unreachable" });
    const busy = await api.createOrderBatch({ csv: book() }).catch((caught: unknown) => caught);
    expect(busy).toBeInstanceOf(ApiError);
    expect(busy).toMatchObject({ status: 503, code: "unavailable" });
    expect(server.requests).toHaveLength(3);
  });

  it("reads results as they arrive, however long the stream takes, as long as it keeps coming", async () => {
    const count = 50;
    server = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      let row = 0;
      const timer = setInterval(() => {
        row += 1;
        const line = `${JSON.stringify(result(row))}\n`;
        // Each line arrives in two writes, cut mid-line.
        response.write(line.slice(0, 5));
        response.write(line.slice(5));
        if (row === count) {
          clearInterval(timer);
          response.end();
        }
      }, 50);
    });
    // The whole stream takes 2.5 times the timeout; each line comes a twentieth of it after the one before. With an
    // eighth (50 ms of 400), a loaded CI machine once held the test's process up past the timeout.
    const api = createApiClient({ baseUrl: server.url, tokens, timeoutMs: 1000 });
    const results: OrderBatchResult[] = await collect(api.orderBatchResults("bat_1"));
    expect(results.map((line) => line.row)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(server.requests[0]?.url).toBe("/v1/order-batches/bat_1/results");
    expect(server.requests[0]?.headers.accept).toContain("application/x-ndjson");
  });

  it("throws api_timeout when the results stall after the first rows, having yielded those", async () => {
    server = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      response.write(`${JSON.stringify(result(1))}\n{"row":`);
    });
    const api = createApiClient({ baseUrl: server.url, tokens, timeoutMs: 100 });
    const seen: number[] = [];
    const error = await (async () => {
      for await (const line of api.orderBatchResults("bat_1")) seen.push(line.row);
    })().catch((caught: unknown) => caught);
    expect(seen).toEqual([1]);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error).toMatchObject({ code: "api_timeout", message: expect.stringContaining("100 ms") });
  });

  it("throws api_unreachable when the results are cut off, never a short list", async () => {
    server = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      response.write(`${JSON.stringify(result(1))}\n`, () => response.socket?.destroy());
    });
    const api = createApiClient({ baseUrl: server.url, tokens });
    await expect(collect(api.orderBatchResults("bat_1"))).rejects.toMatchObject({
      name: "ApiNetworkError",
      code: "api_unreachable",
    });
  });

  it("throws the ApiError of an error answer, and retries a 503 before streaming", async () => {
    server = await startLoopbackServer((_request, response, index) => {
      if (index === 0) answerJson(response, { title: "Busy", status: 503, code: "unavailable" }, 503);
      else answerJson(response, { title: "Not Found", status: 404, code: "not_found", detail: "no batch" }, 404);
    });
    const api = createApiClient({ baseUrl: server.url, tokens, maxRetryDelayMs: 0 });
    const error = await collect(api.orderBatchResults("bat_nope")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: "not_found", detail: "no batch" });
    expect(server.requests).toHaveLength(2);
  });
});
