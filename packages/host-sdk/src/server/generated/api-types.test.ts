import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_TYPES_FILE, renderApiTypes } from "../../../scripts/generate-api-types.js";
import { startTestServer, type TestServer } from "../test-server.js";

describe("the committed API types", () => {
  let server: TestServer;
  beforeAll(async () => {
    // The server's current sources, not its build: a route changed without regenerating fails here.
    server = await startTestServer({ settings: { LOTLINE_PUBLIC_URL: "https://lotline.example" } });
  });
  afterAll(() => server.close());

  it("are what the current server's OpenAPI document generates (else: npm run generate:api-types)", async () => {
    const expected = await renderApiTypes(await server.openApiDocument());
    const committed = readFileSync(API_TYPES_FILE, "utf8");
    expect(
      committed === expected,
      "src/server/generated/api-types.ts is out of date: run `npx tsc --build && npm run generate:api-types -w @lotline/host-sdk`",
    ).toBe(true);
  });
});
