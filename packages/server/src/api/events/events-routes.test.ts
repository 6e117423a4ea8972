import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importEvent } from "../../events/import-event.js";
import { importFile } from "../../geo/import/import-file.js";
import type { Area, LonLat } from "../../geo/types.js";
import { createOrder } from "../../orders/create-order.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import { createJobRunner } from "../../workers/background-work.js";

/** Lots of 0.001° (about 85 × 110 m) along a street, 0.0005° apart, in a patch of the map of this test's own. */
const ORIGIN: LonLat = [-96.5, 39.2];
const west = (i: number) => ORIGIN[0] + i * 0.0015;
const lot = (i: number): Area => {
  const [x, y] = [west(i), ORIGIN[1]];
  return {
    type: "Polygon",
    coordinates: [
      [
        [x, y],
        [x + 0.001, y],
        [x + 0.001, y + 0.001],
        [x, y + 0.001],
        [x, y],
      ],
    ],
  };
};
const middleOf = (i: number): LonLat => [west(i) + 0.0005, ORIGIN[1] + 0.0005];

describe("/v1/events", () => {
  let test: TestApp;
  let folder: string;
  let river: TestTenant;
  let harbour: TestTenant;
  let prairie: TestTenant;
  let eventId: string;
  const properties: number[] = [];

  beforeAll(async () => {
    test = await createTestApp();
    folder = mkdtempSync(join(tmpdir(), "lotline-events-"));
    const { database } = test.services;
    const lots = join(folder, "lots.geojson");
    writeFileSync(
      lots,
      JSON.stringify({
        type: "FeatureCollection",
        features: [0, 1, 2, 3].map((i) => ({ type: "Feature", properties: { APN: `EV-${i}` }, geometry: lot(i) })),
      }),
    );
    await importFile(database, { kind: "parcels", file: lots, idField: "APN", name: "Event lots" });
    river = await createTenant(test.services, "River Mutual");
    harbour = await createTenant(test.services, "Harbour Insurance");
    // Lots 0, 1 and 2 are River's, lot 3 Harbour's.
    for (const i of [0, 1, 2, 3]) {
      const org = i < 3 ? river : harbour;
      const [lon, lat] = middleOf(i);
      const order = await createOrder(database, org.orgId, { location: { lon, lat }, external_id: `=POL-${i}` });
      properties.push(order.property_id);
    }
    // And one of River's where no lot is, inside the swath: its order fails, but its place is known.
    const lotless = await createOrder(database, river.orgId, {
      location: { lon: west(0) - 0.0005, lat: ORIGIN[1] + 0.0005 },
      external_id: "POL-LOTLESS",
    });
    properties.push(lotless.property_id);
    // Prairie's two properties on lot 2, which the swath misses: one ordered with a boundary drawn west from it,
    // reaching into the swath over lot 1, the other as the parcel is.
    prairie = await createTenant(test.services, "Prairie Mutual");
    const drawnWest = west(1) + 0.0002;
    const drawn: Area = {
      type: "Polygon",
      coordinates: [
        [
          [drawnWest, ORIGIN[1]],
          [west(2) + 0.001, ORIGIN[1]],
          [west(2) + 0.001, ORIGIN[1] + 0.001],
          [drawnWest, ORIGIN[1] + 0.001],
          [drawnWest, ORIGIN[1]],
        ],
      ],
    };
    for (const [external_id, boundary] of [
      ["POL-DRAWN", drawn],
      ["POL-AS-PARCEL", undefined],
    ] as const) {
      const [lon, lat] = middleOf(2);
      const order = await createOrder(database, prairie.orgId, {
        location: { lon, lat },
        external_id,
        ...(boundary ? { parcel_boundary: boundary } : {}),
      });
      properties.push(order.property_id);
    }
    await createJobRunner(test.services).drain();
    // A hail swath: lot 0 whole at 2.5 in, the west half of lot 1 at 1.75 in; and lot 3 whole.
    const y0 = ORIGIN[1];
    const swath = join(folder, "hail.geojson");
    const box = (from: number, to: number) => [
      [
        [from, y0 - 0.001],
        [to, y0 - 0.001],
        [to, y0 + 0.002],
        [from, y0 + 0.002],
        [from, y0 - 0.001],
      ],
    ];
    writeFileSync(
      swath,
      JSON.stringify({
        type: "FeatureCollection",
        features: [
          {
            type: "Feature",
            properties: { size_in: 2.5 },
            geometry: { type: "Polygon", coordinates: box(west(0) - 0.001, west(0) + 0.001) },
          },
          {
            type: "Feature",
            properties: { size_in: "1.75" },
            geometry: { type: "Polygon", coordinates: box(west(1), west(1) + 0.0005) },
          },
          {
            type: "Feature",
            properties: {},
            geometry: { type: "Polygon", coordinates: box(west(3), west(3) + 0.0015) },
          },
        ],
      }),
    );
    ({ eventId } = await importEvent(database, {
      file: swath,
      name: "Plains hail",
      peril: "hail",
      date: "2026-05-14",
      intensityField: "size_in",
    }));
  }, 120_000);
  afterAll(async () => {
    await test?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const get = async (url: string, tenant: TestTenant, accept?: string) =>
    test.app.inject({
      url,
      headers: { authorization: `Bearer ${await accessTokenFor(test, tenant)}`, ...(accept ? { accept } : {}) },
    });

  it("lists the event with each organization's own count of impacted properties", async () => {
    const theirs = (await get("/v1/events", river)).json();
    expect(theirs).toEqual({
      data: [
        {
          event_id: eventId,
          name: "Plains hail",
          peril: "hail",
          date: "2026-05-14",
          imported_at: expect.any(String),
          impacted_properties: 3,
        },
      ],
      next_cursor: null,
    });
    expect((await get("/v1/events", harbour)).json().data[0].impacted_properties).toBe(1);
  });

  it("pages an organization's impacted properties with the share inside, buildings and intensity", async () => {
    const first = await get(`/v1/events/${eventId}/impacted-properties?limit=1`, river);
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page.data).toEqual([
      {
        property_id: properties[0],
        external_id: "=POL-0",
        address: null,
        parcel_share_inside: 1,
        buildings_inside: 0,
        buildings_total: 0,
        intensity: 2.5,
      },
    ]);
    expect(page.next_cursor).toEqual(expect.any(String));
    const second = (
      await get(`/v1/events/${eventId}/impacted-properties?limit=1&cursor=${page.next_cursor}`, river)
    ).json();
    expect(second.data).toHaveLength(1);
    expect(second.data[0]).toMatchObject({ property_id: properties[1], intensity: 1.75 });
    expect(second.data[0].parcel_share_inside).toBeCloseTo(0.5, 3);
    const third = (await get(`/v1/events/${eventId}/impacted-properties?cursor=${second.next_cursor}`, river)).json();
    expect(third).toEqual({
      data: [
        {
          property_id: properties[4],
          external_id: "POL-LOTLESS",
          address: null,
          parcel_share_inside: null,
          buildings_inside: 0,
          buildings_total: 0,
          intensity: 2.5,
        },
      ],
      next_cursor: null,
    });

    const others = (await get(`/v1/events/${eventId}/impacted-properties`, harbour)).json();
    expect(others.data.map((row: { property_id: number }) => row.property_id)).toEqual([properties[3]]);
    expect(others.data[0].intensity).toBeNull();
  });

  it("lists the event on the property records it met, and on no other", async () => {
    const met = (await get(`/v1/properties/${properties[0]}`, river)).json();
    expect(met.events).toEqual([
      {
        event_id: eventId,
        name: "Plains hail",
        peril: "hail",
        date: "2026-05-14",
        imported_at: expect.any(String),
        parcel_share_inside: 1,
        buildings_inside: 0,
        buildings_total: 0,
        intensity: 2.5,
      },
    ]);
    expect((await get(`/v1/properties/${properties[2]}`, river)).json().events).toEqual([]);
  });

  it("meets a property whose order drew its lot by that boundary, not by the parcel under its point", async () => {
    const found = (await get(`/v1/events/${eventId}/impacted-properties`, prairie)).json();
    expect(found.data.map((row: { external_id: string }) => row.external_id)).toEqual(["POL-DRAWN"]);
    // The swath covers 0.0003° of the drawn lot's 0.0023° from west to east, all of it from south to north.
    expect(found.data[0].parcel_share_inside).toBeCloseTo(0.3 / 2.3, 3);
    expect(found.data[0].intensity).toBe(1.75);
  });

  it("gives the whole list as CSV, a formula-like external id defused", async () => {
    const response = await get(`/v1/events/${eventId}/impacted-properties`, river, "text/csv");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = response.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "property_id,external_id,address,parcel_share_inside,buildings_inside,buildings_total,intensity",
    );
    expect(lines[1]).toBe(`${properties[0]},'=POL-0,,1,0,0,2.5`);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe(`${properties[4]},POL-LOTLESS,,,0,0,2.5`);
  });

  it("answers an unknown event with 404 and a forged cursor with 422", async () => {
    const unknown = await get("/v1/events/evt_nothere/impacted-properties", river);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe("event_not_found");
    const forged = await get(`/v1/events/${eventId}/impacted-properties?cursor=bm90LWpzb24`, river);
    expect(forged.statusCode).toBe(422);
    expect(forged.json().code).toBe("invalid_cursor");
    expect((await get("/v1/events?cursor=WyJ4Il0", river)).json().code).toBe("invalid_cursor");
  });
});
