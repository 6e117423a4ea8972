import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDemoNeighbourhood } from "../../geo/import/import-demo-neighbourhood.js";
import { addressLine } from "../../geo/store/address-line.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import { iframeTokenFor, type PageCall, pageCaller } from "../test-page-api.js";

describe("GET /embed/api/addresses (the pages' address search)", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let page: PageCall;
  let bearer: Record<string, string>;
  let sample: string;

  beforeAll(async () => {
    test = await createTestApp();
    await importDemoNeighbourhood(test.services.database);
    tenant = await createTenant(test.services);
    page = pageCaller(test, await iframeTokenFor(test, tenant.orgId));
    bearer = { authorization: `Bearer ${await accessTokenFor(test, tenant)}` };
    const row = await test.services.db
      .selectFrom("addresses")
      .selectAll()
      .where("unit", "is", null)
      .orderBy("address_id")
      .executeTakeFirstOrThrow();
    sample = addressLine(row);
  });
  afterAll(() => test.close());

  it("answers exactly what the data API answers", async () => {
    const [number, street] = sample.split(" ");
    for (const query of [`q=${encodeURIComponent(sample)}`, `q=${number}%20${street?.slice(0, 2)}&limit=3`, "q=zzzz"]) {
      const viaPage = await page("GET", `/embed/api/addresses?${query}`);
      expect(viaPage.statusCode, query).toBe(200);
      const viaDataApi = await test.app.inject({ url: `/v1/addresses?${query}`, headers: bearer });
      expect(viaPage.json(), query).toEqual(viaDataApi.json());
    }
    const best = (await page("GET", `/embed/api/addresses?q=${encodeURIComponent(sample)}`)).json().data[0];
    expect(best).toMatchObject({ address: sample, score: 1 });
    const limited = (await page("GET", `/embed/api/addresses?q=${number}&limit=2`)).json().data;
    expect(limited.length).toBeLessThanOrEqual(2);
  });

  it("refuses a search without text or with a limit out of range", async () => {
    for (const query of ["", "q=", "q=main&limit=0", "q=main&limit=21"]) {
      const response = await page("GET", `/embed/api/addresses?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe("invalid_request");
    }
  });

  it("needs an iframe session: a data API token or none is refused", async () => {
    const withAccessToken = await page("GET", "/embed/api/addresses?q=main", { token: bearer.authorization?.slice(7) });
    expect(withAccessToken.statusCode).toBe(401);
    expect(withAccessToken.json().code).toBe("session_ended");
    expect(withAccessToken.headers["www-authenticate"]).toContain("Bearer");
    expect((await page("GET", "/embed/api/addresses?q=main", { token: null })).json().code).toBe("session_ended");
  });
});
