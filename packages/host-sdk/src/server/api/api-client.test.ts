import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import { ApiError } from "../errors/api-error.js";
import { ApiNetworkError } from "../errors/api-network-error.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { answerJson, type LoopbackServer, startLoopbackServer } from "../test-loopback.js";
import type { TokenProvider } from "../tokens/token-provider.js";
import { createApiClient } from "./api-client.js";
import type {
  EventList,
  ImpactedPropertyList,
  Monitoring,
  PropertyVersion,
  PropertyVersionList,
} from "./api-shapes.js";

interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: string | undefined;
}

/** A data API double answering from a queue; records every request. */
function api(...answers: Array<() => Response>) {
  const seen: Seen[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    seen.push({
      method: init?.method ?? "GET",
      url: String(url),
      headers: new Headers(init?.headers),
      body: init?.body === undefined ? undefined : String(init.body),
    });
    const answer = answers.shift();
    if (!answer) throw new Error("no answer queued");
    return answer();
  });
  return { fetch, seen };
}

/** Tokens tok-1, tok-2, … advancing on each invalidate. */
function fakeTokens(): TokenProvider & { invalidated: string[] } {
  let current = 1;
  const invalidated: string[] = [];
  return {
    invalidated,
    getToken: async () => `tok-${current}`,
    invalidate: async (token) => {
      invalidated.push(String(token));
      current += 1;
    },
  };
}

const ORDER = {
  order_id: "ord_1",
  property_id: 7,
  status: "complete" as const,
  product_matrix_id: "pm_1",
  created_at: "2026-11-22T10:00:00.000Z",
};
const DATASET = { dataset: "fema-nfhl", license: "public domain", provider: "FEMA", vintage: "2026-09" };
const VERSION_SUMMARY = {
  version: 2,
  cause: "data_change" as const,
  created_at: "2026-11-21T08:00:00.000Z",
  datasets: [DATASET],
};
const PROPERTY_VERSION = {
  ...VERSION_SUMMARY,
  property_id: 7,
  buildings: [],
  data: { flood_zone: "AE" },
  parcel: null,
  third_party: null,
};
const MONITORING = { callback_url: "https://core.example/lotline/monitoring", updated_at: "2026-11-22T11:00:00.000Z" };
const EVENT = {
  event_id: "evt_1",
  name: "Hurricane Ada",
  peril: "wind" as const,
  date: "2026-09-14",
  impacted_properties: 3,
  imported_at: "2026-09-15T00:00:00.000Z",
};
const IMPACTED = {
  property_id: 7,
  external_id: "POL-1",
  address: "1 Main St, Springfield, IL",
  buildings_inside: 1,
  buildings_total: 2,
  intensity: 3.5,
  parcel_share_inside: null,
};
const ok =
  (body: unknown, status = 200) =>
  () =>
    Response.json(body, { status });
/** What fetch does when the connection is refused or reset: it rejects, with no answer. */
const connectionReset = () => {
  throw new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });
};
const problem =
  (status: number, code: string, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify({ type: "about:blank", title: "No", status, code, detail: `because ${code}` }), {
      status,
      headers: { "content-type": "application/problem+json", ...headers },
    });

describe("createApiClient", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date", "performance", "setTimeout", "clearTimeout"] });
    vi.setSystemTime(Date.UTC(2026, 10, 22, 12));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends the bearer token and the query, and returns the typed body", async () => {
    const { fetch, seen } = api(ok({ data: [ORDER], next_cursor: null }));
    const client = createApiClient({ baseUrl: "https://lotline.example/", tokens: fakeTokens(), fetch });
    const page = await client.listOrders({ status: "complete", limit: 10, cursor: undefined });
    expect(page.data[0]?.order_id).toBe("ord_1");
    expect(seen[0]?.url).toBe("https://lotline.example/v1/orders?status=complete&limit=10");
    expect(seen[0]?.headers.get("authorization")).toBe("Bearer tok-1");
  });

  it("takes baseUrl as the data API's full URL, an origin, or a URL under a proxy's prefix", async () => {
    const expected: Array<[string, string]> = [
      ["https://lotline.example/v1", "https://lotline.example/v1/me"],
      ["https://lotline.example/v1/", "https://lotline.example/v1/me"],
      ["https://lotline.example", "https://lotline.example/v1/me"],
      ["https://gw.example/lotline/v1", "https://gw.example/lotline/v1/me"],
    ];
    for (const [baseUrl, url] of expected) {
      const { fetch, seen } = api(ok({ org_id: "org_1" }));
      await createApiClient({ baseUrl, tokens: fakeTokens(), fetch }).me();
      expect(seen[0]?.url, baseUrl).toBe(url);
    }
  });

  it("refuses at creation a baseUrl that is neither the data API's address nor an origin", () => {
    const { fetch } = api();
    expect(() => createApiClient({ baseUrl: "https://lotline.example/v2", tokens: fakeTokens(), fetch })).toThrow(
      ConfigurationError,
    );
    expect(() => createApiClient({ baseUrl: "lotline.example", tokens: fakeTokens(), fetch })).toThrow(
      /^baseUrl must be the data API address, like https:\/\/lotline\.example\/v1, or an origin/,
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it("encodes path segments", async () => {
    const { fetch, seen } = api(ok(ORDER));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    await client.getOrder("ord/../1");
    expect(seen[0]?.url).toBe("https://lotline.example/v1/orders/ord%2F..%2F1");
  });

  it("turns problem+json into an ApiError with status, code and detail", async () => {
    const { fetch } = api(problem(404, "not_found"));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const error = await client.getProperty(99).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: "not_found", detail: "because not_found", title: "No" });
  });

  it("names the status when the error body is not a problem", async () => {
    const { fetch } = api(() => new Response("<html>bad gateway</html>", { status: 502 }));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    await expect(client.me()).rejects.toMatchObject({ status: 502, code: "http_502" });
  });

  it("waits the seconds Retry-After gives on a 429, then retries", async () => {
    const { fetch } = api(problem(429, "rate_limited", { "retry-after": "7" }), ok(ORDER));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const result = client.getOrder("ord_1");
    await vi.advanceTimersByTimeAsync(6_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect((await result).status).toBe("complete");
  });

  it("waits until the HTTP date Retry-After gives on a 503", async () => {
    const later = new Date(Date.now() + 30_000).toUTCString();
    const { fetch } = api(problem(503, "unavailable", { "retry-after": later }), ok(ORDER));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const result = client.getOrder("ord_1");
    await vi.advanceTimersByTimeAsync(29_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await result).order_id).toBe("ord_1");
  });

  it("caps the wait and gives up after maxRetries with the last error", async () => {
    const { fetch } = api(
      problem(429, "rate_limited", { "retry-after": "86400" }),
      problem(429, "rate_limited", { "retry-after": "86400" }),
      problem(429, "rate_limited", { "retry-after": "86400" }),
    );
    const client = createApiClient({
      baseUrl: "https://lotline.example",
      tokens: fakeTokens(),
      fetch,
      maxRetries: 2,
      maxRetryDelayMs: 10_000,
    });
    const result = client.me().catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(await result).toMatchObject({ status: 429, code: "rate_limited" });
  });

  it("backs off exponentially when a 503 gives no Retry-After", async () => {
    const { fetch } = api(problem(503, "unavailable"), problem(503, "unavailable"), ok(ORDER));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const result = client.getOrder("ord_1");
    await vi.advanceTimersByTimeAsync(500);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect((await result).order_id).toBe("ord_1");
  });

  it("does not retry other errors", async () => {
    const { fetch } = api(problem(500, "internal"));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    await expect(client.me()).rejects.toMatchObject({ status: 500 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("on a 401 invalidates the refused token once and retries with a fresh one", async () => {
    const tokens = fakeTokens();
    const { fetch, seen } = api(problem(401, "invalid_token"), ok(ORDER));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens, fetch });
    expect((await client.getOrder("ord_1")).order_id).toBe("ord_1");
    expect(tokens.invalidated).toEqual(["tok-1"]);
    expect(seen.map((request) => request.headers.get("authorization"))).toEqual(["Bearer tok-1", "Bearer tok-2"]);
  });

  it("gives up on a second 401", async () => {
    const tokens = fakeTokens();
    const { fetch } = api(problem(401, "invalid_token"), problem(401, "invalid_token"));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens, fetch });
    await expect(client.me()).rejects.toMatchObject({ status: 401, code: "invalid_token" });
    expect(tokens.invalidated).toEqual(["tok-1"]);
  });

  it("sends one Idempotency-Key with an order and keeps it across retries", async () => {
    const { fetch, seen } = api(
      problem(503, "unavailable", { "retry-after": "1" }),
      problem(401, "invalid_token"),
      ok({ order_id: "ord_1", property_id: 7, status: "processing" }, 202),
    );
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const placed = client.createOrder({ address: "1 Main St, Springfield, IL", external_id: "POL-1" });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await placed).toEqual({ order_id: "ord_1", property_id: 7, status: "processing" });
    const keys = seen.map((request) => request.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(seen.every((request) => request.method === "POST")).toBe(true);
    expect(seen.every((request) => request.headers.get("content-type") === "application/json")).toBe(true);
    expect(new Set(seen.map((request) => request.body))).toEqual(
      new Set([JSON.stringify({ address: "1 Main St, Springfield, IL", external_id: "POL-1" })]),
    );
  });

  it("uses a new key per order, or the caller's own", async () => {
    const placed = () => ok({ order_id: "ord_1", property_id: 7, status: "processing" }, 202);
    const { fetch, seen } = api(placed(), placed(), placed());
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    await client.createOrder({ address: "1 Main St" });
    await client.createOrder({ address: "1 Main St" });
    await client.createOrder({ address: "1 Main St" }, { idempotencyKey: "policy-tx-42" });
    const keys = seen.map((request) => request.headers.get("idempotency-key"));
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe("policy-tx-42");
  });
  it("retries a GET that got no answer, backing off like a 503, and succeeds", async () => {
    const { fetch } = api(connectionReset, connectionReset, ok(ORDER));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const result = client.getOrder("ord_1");
    await vi.advanceTimersByTimeAsync(499);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect((await result).order_id).toBe("ord_1");
  });

  it("retries an order that got no answer with the same Idempotency-Key and body", async () => {
    const { fetch, seen } = api(
      connectionReset,
      problem(503, "unavailable", { "retry-after": "1" }),
      connectionReset,
      ok({ order_id: "ord_1", property_id: 7, status: "processing" }, 202),
    );
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const placed = client.createOrder({ address: "1 Main St, Springfield, IL" }, { idempotencyKey: "policy-tx-7" });
    await vi.advanceTimersByTimeAsync(500 + 1_000 + 2_000);
    expect(await placed).toEqual({ order_id: "ord_1", property_id: 7, status: "processing" });
    expect(seen.map((request) => request.headers.get("idempotency-key"))).toEqual(Array(4).fill("policy-tx-7"));
    expect(new Set(seen.map((request) => request.body))).toEqual(
      new Set([JSON.stringify({ address: "1 Main St, Springfield, IL" })]),
    );
  });

  it("does not retry a redelivery that got no answer: it may have been sent", async () => {
    const { fetch } = api(connectionReset, () => new Response(null, { status: 202 }));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const error = await client.redeliverWebhook("wh_1").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error).toMatchObject({ code: "api_unreachable", cause: expect.any(TypeError) });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("gives up on a request that gets no answer after maxRetries, counting 503s too", async () => {
    const { fetch } = api(connectionReset, problem(503, "unavailable"), connectionReset, ok(ORDER));
    const client = createApiClient({
      baseUrl: "https://lotline.example",
      tokens: fakeTokens(),
      fetch,
      maxRetries: 2,
      maxRetryDelayMs: 800,
    });
    const result = client.me().catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(500 + 800);
    expect(fetch).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(3);
    const error = await result;
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error).toMatchObject({ code: "api_unreachable" });
  });

  it("lists a property's versions", async () => {
    const { fetch, seen } = api(ok({ data: [VERSION_SUMMARY] }));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const versions = await client.listPropertyVersions(7);
    expectTypeOf(versions).toEqualTypeOf<PropertyVersionList>();
    expect(versions).toEqual({ data: [VERSION_SUMMARY] });
    expect(seen.map(({ method, url }) => [method, url])).toEqual([
      ["GET", "https://lotline.example/v1/properties/7/versions"],
    ]);
  });

  it("gets one version of a property", async () => {
    const { fetch, seen } = api(ok(PROPERTY_VERSION));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const version = await client.getPropertyVersion(7, 2);
    expectTypeOf(version).toEqualTypeOf<PropertyVersion>();
    expect(version).toEqual(PROPERTY_VERSION);
    expect(seen.map(({ method, url }) => [method, url])).toEqual([
      ["GET", "https://lotline.example/v1/properties/7/versions/2"],
    ]);
  });

  it("gets where monitoring webhooks go", async () => {
    const { fetch, seen } = api(ok({ callback_url: null, updated_at: null }));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const monitoring = await client.getMonitoring();
    expectTypeOf(monitoring).toEqualTypeOf<Monitoring>();
    expect(monitoring).toEqual({ callback_url: null, updated_at: null });
    expect(seen.map(({ method, url, body }) => [method, url, body])).toEqual([
      ["GET", "https://lotline.example/v1/monitoring", undefined],
    ]);
  });

  it("sets the monitoring callback with a JSON PUT", async () => {
    const { fetch, seen } = api(ok(MONITORING));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const monitoring = await client.setMonitoring({ callback_url: MONITORING.callback_url });
    expectTypeOf(monitoring).toEqualTypeOf<Monitoring>();
    expect(monitoring).toEqual(MONITORING);
    expect(seen.map(({ method, url, body }) => [method, url, body])).toEqual([
      ["PUT", "https://lotline.example/v1/monitoring", JSON.stringify({ callback_url: MONITORING.callback_url })],
    ]);
    expect(seen[0]?.headers.get("content-type")).toBe("application/json");
    expect(seen[0]?.headers.get("idempotency-key")).toBeNull();
  });

  it("clears the monitoring callback with a DELETE answered 204", async () => {
    const { fetch, seen } = api(() => new Response(null, { status: 204 }));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const cleared = client.clearMonitoring();
    expectTypeOf(cleared).toEqualTypeOf<Promise<void>>();
    await expect(cleared).resolves.toBeUndefined();
    expect(seen.map(({ method, url, body }) => [method, url, body])).toEqual([
      ["DELETE", "https://lotline.example/v1/monitoring", undefined],
    ]);
  });

  it("retries setting or clearing monitoring that got no answer: repeating it changes nothing", async () => {
    const { fetch, seen } = api(
      connectionReset,
      ok(MONITORING),
      connectionReset,
      () => new Response(null, { status: 204 }),
    );
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const set = client.setMonitoring({ callback_url: MONITORING.callback_url });
    await vi.advanceTimersByTimeAsync(500);
    expect(await set).toEqual(MONITORING);
    const cleared = client.clearMonitoring();
    await vi.advanceTimersByTimeAsync(500);
    await expect(cleared).resolves.toBeUndefined();
    const body = JSON.stringify({ callback_url: MONITORING.callback_url });
    expect(seen.map(({ method, body }) => [method, body])).toEqual([
      ["PUT", body],
      ["PUT", body],
      ["DELETE", undefined],
      ["DELETE", undefined],
    ]);
  });

  it("lists events a page at a time", async () => {
    const { fetch, seen } = api(ok({ data: [EVENT], next_cursor: "c2" }), ok({ data: [], next_cursor: null }));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const page = await client.listEvents();
    expectTypeOf(page).toEqualTypeOf<EventList>();
    expect(page).toEqual({ data: [EVENT], next_cursor: "c2" });
    expect(await client.listEvents({ limit: 50, cursor: "c2" })).toEqual({ data: [], next_cursor: null });
    expect(seen.map(({ method, url }) => [method, url])).toEqual([
      ["GET", "https://lotline.example/v1/events"],
      ["GET", "https://lotline.example/v1/events?limit=50&cursor=c2"],
    ]);
  });

  it("lists the properties an event met, as JSON pages, with the event id encoded", async () => {
    const { fetch, seen } = api(ok({ data: [IMPACTED], next_cursor: null }));
    const client = createApiClient({ baseUrl: "https://lotline.example", tokens: fakeTokens(), fetch });
    const page = await client.listImpactedProperties("evt/../1 a", { limit: 2, cursor: "c1" });
    expectTypeOf(page).toEqualTypeOf<ImpactedPropertyList>();
    expect(page).toEqual({ data: [IMPACTED], next_cursor: null });
    expect(seen.map(({ method, url }) => [method, url])).toEqual([
      ["GET", "https://lotline.example/v1/events/evt%2F..%2F1%20a/impacted-properties?limit=2&cursor=c1"],
    ]);
    expect(seen[0]?.headers.get("accept")).toBe("application/json, application/problem+json");
  });
});

describe("createApiClient over loopback HTTP", () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("aborts an attempt that gets no answer within timeoutMs, retries a GET, then throws api_timeout", async () => {
    server = await startLoopbackServer(() => undefined);
    const client = createApiClient({
      baseUrl: server.url,
      tokens: fakeTokens(),
      timeoutMs: 1000,
      maxRetries: 1,
      maxRetryDelayMs: 0,
    });
    const started = performance.now();
    const error = await client.getOrder("ord_1").catch((caught: unknown) => caught);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1990);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error).toMatchObject({ code: "api_timeout", message: expect.stringContaining("1000 ms") });
    await server.received(2);
    expect(server.requests.map((request) => request.url)).toEqual(["/v1/orders/ord_1", "/v1/orders/ord_1"]);
  });

  it("times out an answer whose body stalls", async () => {
    server = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"order_id":');
    });
    const client = createApiClient({ baseUrl: server.url, tokens: fakeTokens(), timeoutMs: 100, maxRetries: 0 });
    await expect(client.me()).rejects.toMatchObject({ name: "ApiNetworkError", code: "api_timeout" });
  });

  it("retries a GET whose connection was reset, and returns the answer", async () => {
    server = await startLoopbackServer((_request, response, index) => {
      if (index === 0) response.socket?.destroy();
      else answerJson(response, ORDER);
    });
    const client = createApiClient({ baseUrl: server.url, tokens: fakeTokens(), maxRetryDelayMs: 0 });
    expect((await client.getOrder("ord_1")).order_id).toBe("ord_1");
    expect(server.requests).toHaveLength(2);
  });

  it("retries an order whose connection was reset, with the same Idempotency-Key", async () => {
    server = await startLoopbackServer((_request, response, index) => {
      if (index === 0) response.socket?.destroy();
      else answerJson(response, { order_id: "ord_1", property_id: 7, status: "processing" }, 202);
    });
    const client = createApiClient({ baseUrl: server.url, tokens: fakeTokens(), maxRetryDelayMs: 0 });
    expect((await client.createOrder({ address: "1 Main St" })).order_id).toBe("ord_1");
    const keys = server.requests.map((request) => request.headers["idempotency-key"]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it("does not retry a redelivery whose connection was reset", async () => {
    server = await startLoopbackServer((_request, response) => {
      response.socket?.destroy();
    });
    const client = createApiClient({ baseUrl: server.url, tokens: fakeTokens(), maxRetryDelayMs: 0 });
    await expect(client.redeliverWebhook("wh_1")).rejects.toMatchObject({
      name: "ApiNetworkError",
      code: "api_unreachable",
    });
    expect(server.requests.map((request) => request.method)).toEqual(["POST"]);
  });
});
