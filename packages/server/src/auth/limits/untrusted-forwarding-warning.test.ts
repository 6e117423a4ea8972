import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp, serverLogger } from "../../app.js";
import type { Settings } from "../../config/config.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

/** The service as `lotline serve` logs, listening on loopback, with its log lines kept. */
async function loggingService(settings: Settings) {
  const test = await createTestApp(settings);
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = await buildApp(test.services, { logger: { ...(serverLogger("info") as object), stream } });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  running.push({ test, app });
  const warnings = () => lines.filter((line) => line.includes("X-Forwarded-For"));
  return { url, warnings };
}

const running: { test: TestApp; app: FastifyInstance }[] = [];
afterEach(async () => {
  for (const { test, app } of running.splice(0)) {
    await app.close();
    await test.close();
  }
});

const forwarded = (url: string) => fetch(`${url}/healthz`, { headers: { "x-forwarded-for": "203.0.113.7" } });

describe("X-Forwarded-For from a peer LOTLINE_TRUST_PROXY does not name", () => {
  it("logs one warning naming the peer and the variable, on the first such request only", async () => {
    const service = await loggingService({ LOTLINE_TRUST_PROXY: "10.0.0.1" });
    await fetch(`${service.url}/healthz`);
    expect(service.warnings()).toEqual([]);
    for (let i = 0; i < 3; i++) expect((await forwarded(service.url)).status).toBe(200);
    expect(service.warnings()).toHaveLength(1);
    const warning = JSON.parse(service.warnings()[0] ?? "{}");
    expect(warning.level).toBe(40);
    expect(warning.peer).toMatch(/127\.0\.0\.1$/);
    expect(warning.msg).toContain("LOTLINE_TRUST_PROXY");
  });

  it("warns of it when no proxy is trusted at all, and not when the peer is a named proxy", async () => {
    const untrusting = await loggingService({});
    await forwarded(untrusting.url);
    expect(untrusting.warnings()).toHaveLength(1);

    const trusting = await loggingService({ LOTLINE_TRUST_PROXY: "10.0.0.0/8, 127.0.0.1" });
    await forwarded(trusting.url);
    expect(trusting.warnings()).toEqual([]);
  });
});
