import { type AddressInfo, createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { type RunningServer, startServer } from "../cli/server.js";
import { loadConfig } from "../config/config.js";
import { accessTokenOver, createTenant, createTestApp, freePort, type TestApp } from "../test/test-app.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";

describe("operational routes", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(() => test.close());

  it("GET /healthz answers 200", async () => {
    const response = await test.app.inject({ url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("GET /readyz answers 200 while the database answers", async () => {
    const response = await test.app.inject({ url: "/readyz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ready" });
  });

  describe("GET /v1/openapi.json", () => {
    it("is an OpenAPI 3.1 document listing the token, sign-in and data API paths", async () => {
      const response = await test.app.inject({ url: "/v1/openapi.json" });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      const document = response.json();
      expect(document.openapi).toMatch(/^3\.1\./);
      expect(document.info.title).toBeTypeOf("string");
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining(["/oauth/token", "/auth/signin/integration", "/v1/me"]),
      );
      expect(document.paths["/oauth/token"].post).toBeDefined();
      expect(document.paths["/auth/signin/integration"].post).toBeDefined();
      expect(document.paths["/v1/me"].get.security).toEqual([{ bearer: [] }]);
      expect(document.servers).toEqual([{ url: "http://lotline.test" }]);
    });

    it("leaves the operational routes out", async () => {
      const paths = Object.keys((await test.app.inject({ url: "/v1/openapi.json" })).json().paths);
      for (const hidden of ["/healthz", "/readyz", "/metrics", "/v1/openapi.json"]) expect(paths).not.toContain(hidden);
    });

    it("is public: no bearer token needed", async () => {
      const response = await test.app.inject({ url: "/v1/openapi.json" });
      expect(response.statusCode).toBe(200);
      expect(response.headers["www-authenticate"]).toBeUndefined();
    });
  });

  describe("unknown paths", () => {
    it.each([
      ["GET", "/nope"],
      ["POST", "/nope/deeper?x=1"],
      ["DELETE", "/healthz/extra"],
    ] as const)("%s %s answers 404 problem+json with code not_found", async (method, url) => {
      const response = await test.app.inject({ method, url });
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ status: 404, code: "not_found", title: "Not Found" });
      expect(response.json().detail).not.toContain("?x=1");
    });
  });
});

describe("GET /readyz when the database is gone", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  // `close` closes the database a second time, which Kysely allows, and then removes it.
  afterAll(() => test.close());

  it("answers 503 while /healthz still answers 200", async () => {
    expect((await test.app.inject({ url: "/readyz" })).statusCode).toBe(200);
    await test.services.database.close();

    const ready = await test.app.inject({ url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().status).not.toBe("ready");
    expect((await test.app.inject({ url: "/healthz" })).statusCode).toBe(200);
  });
});

describe("a worker process", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(() => test.close());

  it("serves its health but not the interface (its metrics are on the management listener)", async () => {
    const worker = await buildApp(test.services, { serveInterface: false });
    try {
      expect((await worker.inject({ url: "/healthz" })).statusCode).toBe(200);
      expect((await worker.inject({ url: "/readyz" })).statusCode).toBe(200);
      for (const url of ["/metrics", "/oauth/token", "/v1/me", "/v1/openapi.json", "/docs"]) {
        expect((await worker.inject({ url })).statusCode, url).toBe(404);
      }
    } finally {
      await worker.close();
    }
  });
});

describe("the management listener", () => {
  let testDatabase: TestDatabase;
  let server: RunningServer;
  let worker: RunningServer;
  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    const settings = { LOTLINE_DATABASE_URL: testDatabase.url, LOTLINE_LOG_LEVEL: "silent" };
    const port = await freePort();
    server = await startServer(loadConfig({ ...settings, PORT: String(port), LOTLINE_MANAGEMENT_PORT: "0" }));
    worker = await startServer(loadConfig({ ...settings, PORT: "0", LOTLINE_MANAGEMENT_PORT: "0" }), "worker");
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.stop();
    await testDatabase.destroy();
  });

  const metricsOf = async (running: RunningServer) => {
    const response = await fetch(`${running.managementUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    return response.text();
  };

  it("serves /metrics on loopback, off the service port, which answers 404 for it", async () => {
    expect(new URL(server.managementUrl ?? "").hostname).toBe("127.0.0.1");
    expect(server.managementUrl).not.toBe(server.url);
    const onServicePort = await fetch(`${server.url}/metrics`);
    expect(onServicePort.status).toBe(404);
    expect(await onServicePort.text()).not.toContain("process_cpu_seconds_total");
    // Health and readiness stay on the service port: load balancers probe it.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it("counts the service port's requests by route template and status, never by raw URL or client", async () => {
    const tenant = await createTenant(server.services);
    const token = await accessTokenOver(server.url, server.services.config.apiAudience, tenant);
    expect((await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await fetch(`${server.url}/nowhere/prop_0123456789secret`);

    await fetch(`${server.url}/healthz`);

    const text = await metricsOf(server);
    expect(text).toContain("# TYPE http_request_duration_seconds histogram");
    expect(text).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/healthz"[^}]*status_code="200"[^}]*\} \d+/,
    );
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/me",status_code="200"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="POST",route="\/oauth\/token"/);
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*status_code="404"/);
    expect(text).toContain("process_cpu_seconds_total");
    expect(text).not.toContain(tenant.clientId);
    expect(text).not.toContain("prop_0123456789secret");
  });

  it("serves a worker's metrics too, while its service port answers health only", async () => {
    expect(await metricsOf(worker)).toContain("process_cpu_seconds_total");
    expect((await fetch(`${worker.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${worker.url}/healthz`)).status).toBe(200);
  });
});

describe("the management listener's port already taken", () => {
  let testDatabase: TestDatabase;
  let blocker: Server;
  let takenPort: number;
  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    takenPort = (blocker.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
    await testDatabase.destroy();
  });

  const settings = () => ({ LOTLINE_DATABASE_URL: testDatabase.url, LOTLINE_LOG_LEVEL: "silent" });

  it("stops a start whose LOTLINE_MANAGEMENT_PORT was chosen", async () => {
    const config = loadConfig({ ...settings(), PORT: "0", LOTLINE_MANAGEMENT_PORT: String(takenPort) });
    await expect(startServer(config)).rejects.toThrow(/EADDRINUSE/);
  });

  it("serves without metrics when only the default port (PORT + 1000) is taken", async () => {
    let port = await freePort();
    while (port + 1000 > 65_535) port = await freePort();
    // Held here, or already held by something else: taken either way.
    const holder = createServer();
    await new Promise<void>((resolve) =>
      holder.once("error", () => resolve()).listen(port + 1000, "127.0.0.1", resolve),
    );
    try {
      const server = await startServer(loadConfig({ ...settings(), PORT: String(port) }));
      try {
        expect(server.managementUrl).toBeUndefined();
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      } finally {
        await server.stop();
      }
    } finally {
      if (holder.listening) await new Promise((resolve) => holder.close(resolve));
    }
  });
});
