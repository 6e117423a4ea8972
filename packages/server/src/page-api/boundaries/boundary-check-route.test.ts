import { ORDER_FAILURE_MESSAGES } from "@lotline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starPolygon } from "../../geo/geometry/test-shapes.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import { iframeTokenFor, type PageCall, pageCaller } from "../test-page-api.js";

/** About `metres` on a side at latitude 42°: 1° of latitude is ~111 km, of longitude ~82.7 km. */
function squareOf(metres: number, lon = -71.06, lat = 42.36) {
  const dLat = metres / 111_050;
  const dLon = metres / 82_700;
  return {
    type: "Polygon",
    coordinates: [
      [
        [lon, lat],
        [lon + dLon, lat],
        [lon + dLon, lat + dLat],
        [lon, lat + dLat],
        [lon, lat],
      ],
    ],
  };
}

describe("POST /embed/api/boundaries/check", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let page: PageCall;

  beforeAll(async () => {
    test = await createTestApp();
    tenant = await createTenant(test.services);
    page = pageCaller(test, await iframeTokenFor(test, tenant.orgId));
  });
  afterAll(() => test.close());

  const check = (boundary: unknown) => page("POST", "/embed/api/boundaries/check", { payload: { boundary } });

  it("accepts a lot and measures it", async () => {
    const response = await check(squareOf(30));
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.valid).toBe(true);
    expect(answer.area_m2).toBeGreaterThan(890);
    expect(answer.area_m2).toBeLessThan(910);
    expect(answer.area_m2).toBe(Math.round(answer.area_m2 * 100) / 100);
    expect(answer.reason).toBeUndefined();
    expect(answer.message).toBeUndefined();
  });

  it("refuses a boundary that crosses itself, and says so in words", async () => {
    const bowTie = {
      type: "Polygon",
      coordinates: [
        [
          [-71.06, 42.36],
          [-71.0596, 42.3603],
          [-71.0596, 42.36],
          [-71.06, 42.3603],
          [-71.06, 42.36],
        ],
      ],
    };
    const response = await check(bowTie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      valid: false,
      reason: "boundary_self_intersecting",
      message: "The boundary crosses itself. Redraw it so that its edges do not cross.",
    });
  });

  it("refuses boundaries too small, too large or enclosing nothing, each with its own message", async () => {
    const flat = {
      type: "Polygon",
      coordinates: [
        [
          [-71.06, 42.36],
          [-71.059, 42.36],
          [-71.058, 42.36],
          [-71.06, 42.36],
        ],
      ],
    };
    const cases: Array<[unknown, keyof typeof ORDER_FAILURE_MESSAGES]> = [
      [squareOf(2), "boundary_too_small"],
      [squareOf(1500), "boundary_too_large"],
      [flat, "boundary_invalid"],
    ];
    for (const [boundary, reason] of cases) {
      const answer = (await check(boundary)).json();
      expect(answer).toEqual({ valid: false, reason, message: ORDER_FAILURE_MESSAGES[reason] });
    }
  });

  it("refuses what is not a GeoJSON Polygon before checking it", async () => {
    const cases: unknown[] = [
      undefined,
      { type: "Point", coordinates: [-71.06, 42.36] },
      { type: "Polygon", coordinates: [[[-71.06, 42.36]]] },
      { type: "Polygon", coordinates: "none" },
    ];
    for (const boundary of cases) {
      const response = await page("POST", "/embed/api/boundaries/check", {
        payload: boundary === undefined ? {} : { boundary },
      });
      expect(response.statusCode, JSON.stringify(boundary)).toBe(400);
      expect(response.json().code).toBe("invalid_request");
    }
  });

  it("refuses a boundary beyond the geometry limits with a 422 naming the limit, before checking it", async () => {
    const ring = Array.from({ length: 5_001 }, (_, i) => [-71.06 + Math.cos(i) / 1e4, 42.36 + Math.sin(i) / 1e4]);
    const response = await check({ type: "Polygon", coordinates: [ring] });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: "geometry_limit_exceeded",
      detail: "boundary: ring 1 has 5001 positions; at most 5000 positions per ring are accepted",
    });
  });

  it("refuses an attacker's star polygon of 3,200 positions as crossing itself", async () => {
    const star = { type: "Polygon", coordinates: [starPolygon([-71.06, 42.36], 0.0005, 3200)] };
    const answers = await Promise.all(Array.from({ length: 8 }, () => check(star)));
    for (const response of answers) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ valid: false, reason: "boundary_self_intersecting" });
    }
  });

  it("needs an iframe session: a data API token is refused", async () => {
    const response = await page("POST", "/embed/api/boundaries/check", {
      payload: { boundary: squareOf(30) },
      token: await accessTokenFor(test, tenant),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("session_ended");
  });
});
