import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { createSecureContext } from "node:tls";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  deliverWebhook,
  type HostLookup,
  MAX_RETRY_AFTER_MS,
  newEventId,
  parseRetryAfter,
  webhookBody,
  webhookHeaders,
} from "./index.js";

interface Received {
  path: string;
  host: string | undefined;
  verified: unknown;
}

const secret = `whsec_${randomBytes(32).toString("base64")}`;
const received: Received[] = [];
let answer: (request: IncomingMessage, response: ServerResponse) => void;
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let verified: unknown;
      try {
        verified = new Webhook(secret).verify(
          Buffer.concat(chunks).toString("utf8"),
          request.headers as Record<string, string>,
        );
      } catch (error) {
        verified = error;
      }
      received.push({ path: request.url ?? "", host: request.headers.host, verified });
      answer(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
  server.closeAllConnections();
  answer = (_request, response) => response.writeHead(204).end();
});

function attempt(
  url: string,
  options: { allowHosts?: string[]; timeoutMs?: number; maxResponseBytes?: number; lookup?: HostLookup } = {},
) {
  const body = webhookBody("order.complete", { order_id: "ord_1" }, Date.now());
  const headers = webhookHeaders(secret, newEventId(), Math.floor(Date.now() / 1000), body);
  return deliverWebhook({ url, headers, body, allowHosts: ["127.0.0.1"], ...options });
}

describe("deliverWebhook", () => {
  it("delivers on 204, and the receiver verifies the signature", async () => {
    const result = await attempt(`${base}/hooks/orders`);
    expect(result).toMatchObject({ outcome: "delivered", statusCode: 204, address: "127.0.0.1", responseExcerpt: "" });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(received).toHaveLength(1);
    expect(received[0]?.path).toBe("/hooks/orders");
    expect(received[0]?.verified).toEqual({
      type: "order.complete",
      timestamp: expect.any(String),
      data: { order_id: "ord_1" },
    });
  });

  it("keeps the response body as the excerpt", async () => {
    answer = (_request, response) => response.writeHead(200, { "content-type": "text/plain" }).end("thanks");
    expect(await attempt(base)).toMatchObject({ outcome: "delivered", statusCode: 200, responseExcerpt: "thanks" });
  });

  it("retries on 500", async () => {
    answer = (_request, response) => response.writeHead(500).end("boom");
    const result = await attempt(base);
    expect(result).toMatchObject({ outcome: "retry", statusCode: 500, responseExcerpt: "boom" });
    expect(result.error).toBeUndefined();
  });

  it("retries on other 4xx", async () => {
    answer = (_request, response) => response.writeHead(404).end();
    expect(await attempt(base)).toMatchObject({ outcome: "retry", statusCode: 404 });
  });

  it("stops on 410 Gone", async () => {
    answer = (_request, response) => response.writeHead(410).end();
    expect(await attempt(base)).toMatchObject({ outcome: "stop", statusCode: 410 });
  });

  it("honours Retry-After in seconds on 429", async () => {
    answer = (_request, response) => response.writeHead(429, { "retry-after": "7" }).end();
    expect(await attempt(base)).toMatchObject({ outcome: "retry", statusCode: 429, retryAfterMs: 7000 });
  });

  it("honours Retry-After as an HTTP date on 503", async () => {
    const at = new Date(Date.now() + 120_000).toUTCString();
    answer = (_request, response) => response.writeHead(503, { "retry-after": at }).end();
    const result = await attempt(base);
    expect(result).toMatchObject({ outcome: "retry", statusCode: 503 });
    expect(result.retryAfterMs).toBeGreaterThan(115_000);
    expect(result.retryAfterMs).toBeLessThanOrEqual(120_000);
  });

  it("does not follow a redirect and counts it as a failure", async () => {
    answer = (request, response) => {
      if (request.url === "/moved") response.writeHead(302, { location: `${base}/target` }).end();
      else response.writeHead(204).end();
    };
    const result = await attempt(`${base}/moved`);
    expect(result).toMatchObject({ outcome: "retry", statusCode: 302 });
    expect(result.error).toBe(`redirect_not_followed: 302 to ${base}/target`);
    expect(received.map((r) => r.path)).toEqual(["/moved"]);
  });

  it("times out on a receiver that does not answer", async () => {
    answer = () => {}; // never answers
    const result = await attempt(base, { timeoutMs: 150 });
    expect(result).toMatchObject({ outcome: "retry", error: "timeout: no response within 150 ms" });
    expect(result.statusCode).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(140);
    expect(result.durationMs).toBeLessThan(2000);
  });

  it("keeps the status once it has come, though the body then stalls past the timeout", async () => {
    answer = (_request, response) => {
      response.writeHead(200);
      response.write("partial");
    };
    expect(await attempt(base, { timeoutMs: 200 })).toMatchObject({
      outcome: "delivered",
      statusCode: 200,
      responseExcerpt: "partial",
    });
  });

  it("reads at most maxResponseBytes of a huge response", async () => {
    const huge = "x".repeat(5 * 1024 * 1024);
    answer = (_request, response) => response.writeHead(500).end(huge);
    const result = await attempt(base);
    expect(result).toMatchObject({ outcome: "retry", statusCode: 500 });
    expect(result.responseExcerpt).toBe("x".repeat(4096));
    const small = await attempt(base, { maxResponseBytes: 100 });
    expect(small.responseExcerpt).toBe("x".repeat(100));
  });

  it("refuses localhost when it is not an allowed host, without connecting", async () => {
    const result = await attempt(`${base.replace("127.0.0.1", "localhost")}/`, { allowHosts: ["127.0.0.1"] });
    expect(result).toMatchObject({ outcome: "stop" });
    expect(result.error).toMatch(/^blocked_address: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
    expect(result.statusCode).toBeUndefined();
    expect(received).toHaveLength(0);
  });

  it("refuses a loopback literal when no host is allowed", async () => {
    const result = await attempt(base, { allowHosts: [] });
    expect(result).toMatchObject({ outcome: "stop", error: expect.stringMatching(/^blocked_address: /) });
    expect(received).toHaveLength(0);
  });

  it("connects to the checked address, resolving the name once, and keeps the name in Host", async () => {
    let lookups = 0;
    const lookup: HostLookup = async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? "127.0.0.1" : "10.9.9.9", family: 4 }];
    };
    const url = `${base.replace("127.0.0.1", "hooks.test")}/pinned`;
    const result = await attempt(url, { allowHosts: ["hooks.test"], lookup });
    expect(result).toMatchObject({ outcome: "delivered", address: "127.0.0.1" });
    expect(lookups).toBe(1);
    expect(received[0]?.host).toBe(new URL(url).host);
  });

  it("retries when the name does not resolve", async () => {
    const lookup: HostLookup = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    const result = await attempt("https://nowhere.invalid/", { lookup });
    expect(result).toMatchObject({ outcome: "retry", error: "dns_failed: cannot resolve nowhere.invalid: ENOTFOUND" });
  });

  it("times out a resolver that hangs", async () => {
    const lookup: HostLookup = () => new Promise(() => {});
    const result = await attempt("https://slow-dns.example/", { lookup, timeoutMs: 100 });
    expect(result).toMatchObject({ outcome: "retry", error: "timeout: no response within 100 ms" });
  });

  it("retries a refused connection", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await attempt(`http://127.0.0.1:${port}/`);
    expect(result).toMatchObject({ outcome: "retry", error: expect.stringMatching(/^network: .*ECONNREFUSED/) });
  });

  it("sends a receiver's webhooks over one kept-alive connection", async () => {
    let connections = 0;
    const count = () => connections++;
    server.on("connection", count);
    try {
      for (let i = 0; i < 3; i++) expect(await attempt(`${base}/hooks/${i}`)).toMatchObject({ outcome: "delivered" });
    } finally {
      server.off("connection", count);
    }
    expect(received).toHaveLength(3);
    expect(connections).toBe(1);
  });

  it("sends again at once on a new connection when the kept one was closed under it", async () => {
    // A receiver that drops a connection on its second request, before answering: what a receiver closing an
    // idle connection just as we reuse it looks like.
    const served = new WeakMap<object, number>();
    const dropping = createServer((request, response) => {
      const count = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, count);
      if (count > 1) request.socket.destroy();
      else request.on("end", () => response.writeHead(204).end()).resume();
    });
    await new Promise<void>((resolve) => dropping.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}/hooks`;
    try {
      expect(await attempt(url)).toMatchObject({ outcome: "delivered" });
      expect(await attempt(url)).toMatchObject({ outcome: "delivered", statusCode: 204 });
    } finally {
      dropping.closeAllConnections();
      await new Promise((resolve) => dropping.close(resolve));
    }
  });

  it("stops on a URL it cannot use", async () => {
    for (const url of ["not a url", "ftp://127.0.0.1/", "http://user:pw@127.0.0.1/"]) {
      expect(await attempt(url)).toMatchObject({ outcome: "stop", error: expect.stringMatching(/^invalid_url: /) });
    }
    expect(received).toHaveLength(0);
  });
});

/** A throwaway self-signed certificate for `hooks.test`, for tests only; no client trusts it. */
const TEST_TLS = {
  key: `-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgQvYyyPMs7cOzjjog\nbAf+vJRARDhPkryVhHfx+aUr0rehRANCAAS36ZmNHGjViObmXS2rUToGtLWfof3D\nXeplsaiM+8TpJkfDOUUc7v21qJHPlrNgevJH6WuHVCMCgqjLaudm1VNB\n-----END PRIVATE KEY-----\n`,
  cert: `-----BEGIN CERTIFICATE-----\nMIIBlzCCAT6gAwIBAgIUMnNrn+2E7u5wM06Kcf7qEvoXHkcwCgYIKoZIzj0EAwIw\nFTETMBEGA1UEAwwKaG9va3MudGVzdDAgFw0yNjExMjIxMTQ2NTNaGA8yMTI2MTAy\nOTExNDY1M1owFTETMBEGA1UEAwwKaG9va3MudGVzdDBZMBMGByqGSM49AgEGCCqG\nSM49AwEHA0IABLfpmY0caNWI5uZdLatROga0tZ+h/cNd6mWxqIz7xOkmR8M5RRzu\n/bWokc+Ws2B68kfpa4dUIwKCqMtq52bVU0GjajBoMB0GA1UdDgQWBBRFyqPl2rN9\ni7HruDefe1LxW1dAAjAfBgNVHSMEGDAWgBRFyqPl2rN9i7HruDefe1LxW1dAAjAP\nBgNVHRMBAf8EBTADAQH/MBUGA1UdEQQOMAyCCmhvb2tzLnRlc3QwCgYIKoZIzj0E\nAwIDRwAwRAIgPDrA0wjks48Eb4Uzjps/BgZoFmQhJZKdWubqaMIEfAYCIFuQA7JD\naAqKb6c3D3Z/dti8KFoYio40t4klgKaXbg5p\n-----END CERTIFICATE-----\n`,
};

describe("deliverWebhook over https", () => {
  it("connects to the checked address with the host name as SNI, and checks the certificate", async () => {
    const serverNames: string[] = [];
    const context = createSecureContext(TEST_TLS);
    const tls = createHttpsServer(
      {
        ...TEST_TLS,
        SNICallback: (servername, done) => {
          serverNames.push(servername);
          done(null, context);
        },
      },
      (_request, response) => response.writeHead(204).end(),
    );
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    try {
      const lookup: HostLookup = async () => [{ address: "127.0.0.1", family: 4 }];
      const url = `https://hooks.test:${(tls.address() as AddressInfo).port}/`;
      const result = await attempt(url, { allowHosts: ["hooks.test"], lookup });
      expect(result).toMatchObject({ outcome: "retry", address: "127.0.0.1" });
      expect(result.error).toMatch(/^network: .*self[- ]signed certificate/);
      expect(serverNames).toEqual(["hooks.test"]);
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2025, 0, 1);
  it("reads seconds and HTTP dates, caps at a day, and ignores the unreadable", () => {
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:02:00 GMT", now)).toBe(120_000);
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("9999999", now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter("Fri, 01 Jan 2100 00:00:00 GMT", now)).toBe(MAX_RETRY_AFTER_MS);
    for (const bad of [undefined, "", "-5", "1.5", "soon", "2025-01-02"])
      expect(parseRetryAfter(bad, now)).toBeUndefined();
  });
});
