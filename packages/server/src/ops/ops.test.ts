import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp } from "../test/test-app.js";

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

  describe("GET /metrics", () => {
    it("is Prometheus text with the request-duration histogram labelled by route template", async () => {
      const tenant = await createTenant(test.services);
      const token = await accessTokenFor(test, tenant);
      expect((await test.app.inject({ url: "/v1/me", headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(
        200,
      );
      await test.app.inject({ url: "/healthz" });

      const response = await test.app.inject({ url: "/metrics" });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/plain/);
      const text = response.body;
      expect(text).toContain("# TYPE http_request_duration_seconds histogram");
      expect(text).toMatch(
        /http_request_duration_seconds_count\{[^}]*route="\/healthz"[^}]*status_code="200"[^}]*\} \d+/,
      );
      expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/me",status_code="200"\} 1/);
      expect(text).toMatch(/http_request_duration_seconds_count\{method="POST",route="\/oauth\/token"/);
      expect(text).toContain("process_cpu_seconds_total");
      // Bearer tokens and client ids never reach a label.
      expect(text).not.toContain(tenant.clientId);
    });

    it("labels unknown paths without their raw URL, so ids in paths never become labels", async () => {
      await test.app.inject({ url: "/nowhere/prop_0123456789secret" });
      const text = (await test.app.inject({ url: "/metrics" })).body;
      expect(text).not.toContain("prop_0123456789secret");
      expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*status_code="404"/);
    });
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

  it("serves its health and metrics but not the interface", async () => {
    const worker = await buildApp(test.services, { serveInterface: false });
    try {
      expect((await worker.inject({ url: "/healthz" })).statusCode).toBe(200);
      expect((await worker.inject({ url: "/readyz" })).statusCode).toBe(200);
      expect((await worker.inject({ url: "/metrics" })).statusCode).toBe(200);
      for (const url of ["/oauth/token", "/v1/me", "/v1/openapi.json", "/docs"]) {
        expect((await worker.inject({ url })).statusCode, url).toBe(404);
      }
    } finally {
      await worker.close();
    }
  });
});
