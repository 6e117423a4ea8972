import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { containsPoint, representativePoint, SQUARE_FEET_PER_SQUARE_METRE } from "../../geo/geometry/index.js";
import { importDemoNeighbourhood } from "../../geo/import/import-demo-neighbourhood.js";
import type { Building, Parcel } from "../../geo/store/geo-rows.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import { demoLotWithBuildings, iframeTokenFor, type PageCall, pageCaller } from "../test-page-api.js";

describe("GET /embed/api/lots (what is at a point)", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let page: PageCall;
  let lot: { parcel: Parcel; buildings: Building[]; addresses: string[] };

  beforeAll(async () => {
    test = await createTestApp();
    await importDemoNeighbourhood(test.services.database);
    tenant = await createTenant(test.services);
    page = pageCaller(test, await iframeTokenFor(test, tenant.orgId));
    lot = await demoLotWithBuildings(test, 2);
  });
  afterAll(() => test.close());

  it("answers the parcel at the point, its address, and its buildings numbered by area, the largest as primary", async () => {
    const [lon = 0, lat = 0] = representativePoint(lot.parcel.boundary);
    const response = await page("GET", `/embed/api/lots?lat=${lat}&lon=${lon}`);
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.location).toEqual({ lat, lon });
    expect(lot.addresses).toContain(answer.address);
    const dataset = await test.services.db
      .selectFrom("datasets")
      .select(["name", "provider", "license"])
      .where("dataset_id", "=", lot.parcel.datasetId)
      .executeTakeFirstOrThrow();
    expect(answer.parcel).toEqual({
      parcel_id: lot.parcel.parcelId,
      source_id: lot.parcel.sourceId,
      boundary: lot.parcel.boundary,
      area_m2: Math.round(lot.parcel.areaM2 * 100) / 100,
      attribution: { dataset: dataset.name, provider: dataset.provider, license: dataset.license },
    });
    expect(answer.parcel.attribution.dataset.toLowerCase()).toContain("generated");

    const byArea = [...lot.buildings].sort((a, b) => b.areaM2 - a.areaM2);
    expect(answer.buildings.map((b: { building_id: number }) => b.building_id)).toEqual(
      byArea.map((b) => b.buildingId),
    );
    expect(answer.buildings.map((b: { number: number }) => b.number)).toEqual(byArea.map((_, index) => index + 1));
    expect(answer.buildings.map((b: { role: string }) => b.role)).toEqual(
      byArea.map((_, index) => (index === 0 ? "primary_dwelling" : "other_structure")),
    );
    for (const [index, view] of answer.buildings.entries()) {
      const building = byArea[index] as Building;
      expect(view.footprint).toEqual(building.footprint);
      expect(view.area_m2).toBe(Math.round(building.areaM2 * 100) / 100);
      expect(view.area_ft2).toBeCloseTo(building.areaM2 * SQUARE_FEET_PER_SQUARE_METRE, 1);
      expect(containsPoint(building.footprint, [view.centroid.lon, view.centroid.lat])).toBe(true);
    }
    expect(answer.buildings[0].area_m2).toBeGreaterThan(answer.buildings[1].area_m2);
  });

  it("answers no address, no parcel and no buildings where the service has no data", async () => {
    const response = await page("GET", "/embed/api/lots?lat=10.5&lon=-20.25");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      location: { lat: 10.5, lon: -20.25 },
      address: null,
      parcel: null,
      buildings: [],
    });
  });

  it("refuses a point that is not one", async () => {
    for (const query of ["lat=91&lon=0", "lat=0&lon=-181", "lat=north&lon=0", "lat=42", ""]) {
      const response = await page("GET", `/embed/api/lots?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(response.json().code).toBe("invalid_request");
    }
  });

  it("answers an iframe session only: a data API token or no token ends the session", async () => {
    const withAccessToken = await page("GET", "/embed/api/lots?lat=0&lon=0", {
      token: await accessTokenFor(test, tenant),
    });
    expect(withAccessToken.statusCode).toBe(401);
    expect(withAccessToken.json().code).toBe("session_ended");
    const without = await page("GET", "/embed/api/lots?lat=0&lon=0", { token: null });
    expect(without.statusCode).toBe(401);
    expect(without.json().code).toBe("session_ended");
  });
});
