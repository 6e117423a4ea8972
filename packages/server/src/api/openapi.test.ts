import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAILURE_REASONS } from "../products/failure-reasons.js";
import { createTestApp, type TestApp } from "../test/test-app.js";

describe("the published API description", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(() => test.close());

  it("is a valid OpenAPI 3.1 document describing every data API route", async () => {
    const document = (await test.app.inject({ url: "/v1/openapi.json" })).json();
    expect(document.openapi).toBe("3.1.0");
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/oauth/token",
        "/auth/signin/integration",
        "/v1/me",
        "/v1/addresses",
        "/v1/product-matrices",
        "/v1/orders",
        "/v1/orders/{order_id}",
        "/v1/properties",
        "/v1/properties/{property_id}",
        "/v1/webhook-deliveries",
        "/v1/webhook-deliveries/{webhook_id}/redeliver",
      ]),
    );
  });

  it("documents every reason an order can fail with", async () => {
    const text = (await test.app.inject({ url: "/v1/openapi.json" })).body;
    for (const reason of FAILURE_REASONS) expect(text).toContain(reason);
  });

  it("is rendered at /docs from files the service serves itself", async () => {
    const page = await test.app.inject({ url: "/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? "");
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(source.startsWith("/")).toBe(true);
      expect((await test.app.inject({ url: source })).statusCode, source).toBe(200);
    }
    expect((await test.app.inject({ url: "/docs/package.json" })).statusCode).toBe(404);
  });
});
