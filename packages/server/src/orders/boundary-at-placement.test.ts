import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starPolygon } from "../geo/geometry/test-shapes.js";
import { iframeTokenFor } from "../page-api/test-page-api.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp } from "../test/test-app.js";

const [LON, LAT] = [-71.06, 42.36];

/** A ring about `metres` on a side at latitude 42° (1° of latitude is ~111 km, of longitude ~82.7 km), open. */
function squareRing(metres: number, lon = LON, lat = LAT): number[][] {
  const [dLon, dLat] = [metres / 82_700, metres / 111_050];
  return [
    [lon, lat],
    [lon + dLon, lat],
    [lon + dLon, lat + dLat],
    [lon, lat + dLat],
  ];
}

const polygon = (...rings: number[][][]) => ({
  type: "Polygon",
  coordinates: rings.map((ring) => [...ring, ring[0]]),
});
const BOW_TIE = polygon([
  [LON, LAT],
  [LON + 0.0004, LAT + 0.0003],
  [LON + 0.0004, LAT],
  [LON, LAT + 0.0003],
]);
const STAR = { type: "Polygon", coordinates: [starPolygon([LON, LAT], 0.0005, 3200)] };

/** A JSON answer: an order accepted, or a problem. */
const answerOf = async (response: Response) =>
  (await response.json()) as { status?: string; code?: string; detail?: string };

describe("a drawn parcel_boundary, checked when the order is placed (real HTTP)", () => {
  let test: TestApp;
  let bearer: string;
  let iframe: string;

  beforeAll(async () => {
    test = await createTestApp({}, { listen: true });
    const tenant = await createTenant(test.services);
    bearer = await accessTokenFor(test, tenant);
    iframe = await iframeTokenFor(test, tenant.orgId);
  });
  afterAll(() => test.close());

  const post = (path: string, body: unknown, token = bearer) =>
    fetch(`${test.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const order = (parcelBoundary: unknown) =>
    post("/v1/orders", { location: { lat: LAT, lon: LON }, parcel_boundary: parcelBoundary });
  const orderCount = async () =>
    Number(
      (
        await test.services.db
          .selectFrom("orders")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("accepts a valid boundary, drawn clockwise and left open as a user draws it", async () => {
    const response = await order({ type: "Polygon", coordinates: [squareRing(30).reverse()] });
    expect(response.status).toBe(202);
    expect((await answerOf(response)).status).toBe("processing");
  });

  it("refuses an invalid boundary at once with the failure reason as its code, naming the field, and keeps no order", async () => {
    const before = await orderCount();
    const cases: Array<[string, unknown, string]> = [
      ["a bow-tie", BOW_TIE, "boundary_self_intersecting"],
      ["a hole outside its ring", polygon(squareRing(30), squareRing(5, LON + 0.01)), "boundary_invalid"],
      [
        "a hole crossing its ring",
        polygon(squareRing(30), squareRing(30, LON + 0.0002, LAT + 0.0001)),
        "boundary_self_intersecting",
      ],
      [
        "a ring on one line",
        polygon([
          [LON, LAT],
          [LON + 0.001, LAT],
          [LON + 0.002, LAT],
        ]),
        "boundary_invalid",
      ],
      [
        "a ring retracing itself",
        polygon([
          [LON, LAT],
          [LON + 0.001, LAT],
          [LON + 0.001, LAT + 0.001],
          [LON + 0.001, LAT],
        ]),
        "boundary_self_intersecting",
      ],
      ["a 2 m square", polygon(squareRing(2)), "boundary_too_small"],
      ["a 1.5 km square", polygon(squareRing(1500)), "boundary_too_large"],
    ];
    for (const [what, boundary, code] of cases) {
      const response = await order(boundary);
      expect(response.status, what).toBe(422);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      const problem = await answerOf(response);
      expect(problem.code, what).toBe(code);
      expect(problem.detail, what).toMatch(/^parcel_boundary: /);
    }
    expect(await orderCount()).toBe(before);
  });

  it("refuses the same on the page API's order route", async () => {
    const response = await post(
      "/embed/api/orders",
      { location: { lat: LAT, lon: LON }, parcel_boundary: BOW_TIE },
      iframe,
    );
    expect(response.status).toBe(422);
    expect((await answerOf(response)).code).toBe("boundary_self_intersecting");
    const valid = await post(
      "/embed/api/orders",
      { location: { lat: LAT, lon: LON }, parcel_boundary: polygon(squareRing(30)) },
      iframe,
    );
    expect(valid.status).toBe(202);
  });

  it("refuses a boundary beyond the geometry limits before any geometry work, naming the limit", async () => {
    const ring = Array.from({ length: 5_001 }, (_, i) => [LON + Math.cos(i) / 1e4, LAT + Math.sin(i) / 1e4]);
    const response = await order({ type: "Polygon", coordinates: [ring] });
    expect(response.status).toBe(422);
    const problem = await answerOf(response);
    expect(problem.code).toBe("geometry_limit_exceeded");
    expect(problem.detail).toBe(
      "parcel_boundary: ring 1 has 5001 positions; at most 5000 positions per ring are accepted",
    );
    const holes = Array.from({ length: 101 }, (_, i) => squareRing(1, LON + i * 0.0001));
    expect((await answerOf(await order(polygon(squareRing(30), ...holes.slice(1))))).code).toBe(
      "geometry_limit_exceeded",
    );
  });

  it("refuses eight star polygons of 3,200 positions each while /healthz answers", async () => {
    const stars = Array.from({ length: 8 }, () => order(STAR));
    const healthz = await fetch(`${test.url}/healthz`);
    expect(healthz.status).toBe(200);
    for (const response of await Promise.all(stars)) {
      expect(response.status).toBe(422);
      expect(await answerOf(response)).toMatchObject({
        code: "boundary_self_intersecting",
        detail: "parcel_boundary: ring 1 crosses or touches itself",
      });
    }
  });
});
