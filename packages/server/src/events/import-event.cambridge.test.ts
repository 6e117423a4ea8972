import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bboxOf } from "../geo/geometry/bbox-of.js";
import { bboxesMeet } from "../geo/geometry/bboxes-meet.js";
import {
  containsPoint,
  geodesicArea,
  intersectionArea,
  intersects,
  representativePoint,
  validateArea,
} from "../geo/geometry/index.js";
import { importFile } from "../geo/import/import-file.js";
import { collect } from "../geo/readers/test-collect.js";
import { decodeGeometry } from "../geo/store/geometry-codec.js";
import type { Area } from "../geo/types.js";
import { JobRunner } from "../jobs/index.js";
import { monitoringSettings, setMonitoringCallback } from "../monitoring/monitoring-settings.js";
import { createOrder } from "../orders/create-order.js";
import { addCallbackPrefix } from "../tenancy/callback-prefixes.js";
import { createOrganization } from "../tenancy/organizations.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import { orderHandlers } from "../workers/background-work.js";
import { impactedProperties, listEvents } from "./event-queries.js";
import { importEvent } from "./import-event.js";

const DATA = fileURLToPath(new URL("../../../../../shared/data/cambridge/", import.meta.url));
const FLOOD = join(DATA, "layers/fema-floodplain-100yr.geojson");

/**
 * The FEMA 1 % flood zone of Cambridge imported as a flood event over two organizations' orders inside and far
 * outside it: each sees exactly its own properties whose parcels meet the zone, with the share inside as an
 * independent computation over the whole zone's polygons finds it.
 */
describe.skipIf(!existsSync(FLOOD))("a flood event over the real Cambridge data", () => {
  let test: TestDatabase;
  const orgs: Array<{ orgId: string; propertyIds: number[] }> = [];
  let zones: Area[];

  beforeAll(async () => {
    test = await createTestDatabase();
    const { database } = test;
    await importFile(database, { kind: "parcels", file: join(DATA, "parcels-fy2014.topojson"), idField: "ML" });
    await importFile(database, { kind: "buildings", file: join(DATA, "buildings-east-cambridge/Buildings.shp") });
    zones = [];
    for (const record of await collect(FLOOD)) {
      if (!("feature" in record)) continue;
      const checked = validateArea(record.feature.geometry as Area);
      if (checked.valid) zones.push(checked.geometry);
    }
    // Lots meeting the zone (inside it or across its edge), lots near it, and lots far from it, in turns.
    const lots: Area[] = [];
    for (const record of await collect(join(DATA, "parcels-fy2014.topojson"))) {
      const geometry = "feature" in record ? record.feature.geometry : null;
      if (geometry?.type === "Polygon" || geometry?.type === "MultiPolygon") lots.push(geometry);
    }
    const zoneBoxes = zones.map(bboxOf);
    const near = lots.filter((lot) => zoneBoxes.some((box) => bboxesMeet(bboxOf(lot), box)));
    const far = lots.filter((lot) => !zoneBoxes.some((box) => bboxesMeet(bboxOf(lot), box)));
    const meeting = near.filter((lot) => zones.some((zone) => intersects(zone, lot)));
    const apart = near.filter((lot) => !meeting.includes(lot));
    const every = (some: Area[], count: number) => some.filter((_, i) => i % Math.floor(some.length / count) === 0);
    const picked = [...every(meeting, 16), ...every(apart, 8), ...every(far, 6)];

    for (const name of ["River Mutual", "Harbour Insurance"]) {
      const { org_id } = await createOrganization(database.db, name);
      orgs.push({ orgId: org_id, propertyIds: [] });
    }
    for (const [i, lot] of picked.entries()) {
      const org = orgs[i % 2] as (typeof orgs)[number];
      const [lon, lat] = representativePoint(lot) as [number, number];
      const order = await createOrder(database, org.orgId, { location: { lon, lat }, external_id: `POL-${i}` });
      org.propertyIds.push(order.property_id);
    }
    await new JobRunner(database, { handlers: orderHandlers(database) }).drain();
    const [river] = orgs;
    await addCallbackPrefix(database.db, river?.orgId ?? "", "https://river.example.com/hooks/");
    await setMonitoringCallback(database.db, river?.orgId ?? "", "https://river.example.com/hooks/monitoring");
  }, 240_000);
  afterAll(() => test?.destroy());

  /**
   * What the event must find for one organization: its properties whose parcel meets a zone, with the share
   * inside; one without a parcel (a lot the city publishes without an id) when its location is in a zone.
   */
  async function expectedFor(propertyIds: number[]) {
    const rows = await test.database.db
      .selectFrom("properties")
      .leftJoin("parcels", "parcels.parcel_id", "properties.parcel_id")
      .select(["properties.property_id", "properties.lon", "properties.lat", "parcels.boundary"])
      .where("properties.property_id", "in", propertyIds)
      .execute();
    expect(rows.filter((row) => row.boundary !== null).length).toBeGreaterThan(propertyIds.length * 0.8);
    const expected = new Map<number, number | null>();
    for (const row of rows) {
      if (row.boundary === null) {
        const point = [row.lon ?? 0, row.lat ?? 0];
        if (zones.some((zone) => containsPoint(zone, point))) expected.set(row.property_id, null);
        continue;
      }
      const boundary = decodeGeometry(row.boundary) as Area;
      const met = zones.filter((zone) => intersects(zone, boundary));
      if (met.length === 0) continue;
      const inside = met.reduce((sum, zone) => sum + intersectionArea(boundary, zone), 0);
      expected.set(row.property_id, Math.min(1, inside / geodesicArea(boundary)));
    }
    return expected;
  }

  it("finds exactly each organization's own properties whose parcels meet the zone, with the share inside", async () => {
    const imported = await importEvent(test.database, { file: FLOOD, name: "Charles River flood", peril: "flood" });
    expect(imported.summary).toMatchObject({ read: zones.length, imported: zones.length, rejected: 0 });

    let total = 0;
    for (const org of orgs) {
      const expected = await expectedFor(org.propertyIds);
      expect(expected.size).toBeGreaterThan(2);
      expect(expected.size).toBeLessThan(org.propertyIds.length);
      const found = await impactedProperties(test.database.db, org.orgId, imported.eventId, { limit: 1000 });
      expect(found.data.map((row) => row.property_id).sort((a, b) => a - b)).toEqual(
        [...expected.keys()].sort((a, b) => a - b),
      );
      for (const row of found.data) {
        // A property without a parcel (its lot published without an id) is met by its location: no share.
        const share = expected.get(row.property_id) ?? null;
        if (share === null) expect(row.parcel_share_inside).toBeNull();
        else expect(row.parcel_share_inside, `property ${row.property_id}`).toBeCloseTo(share, 4);
        expect(row.buildings_inside).toBeLessThanOrEqual(row.buildings_total);
        expect(row.external_id).toMatch(/^POL-\d+$/);
      }
      const [listed] = (await listEvents(test.database.db, org.orgId, { limit: 10 })).data;
      expect(listed).toMatchObject({ event_id: imported.eventId, peril: "flood", impacted_properties: expected.size });
      total += expected.size;
    }
    expect(imported.impactedProperties).toBe(total);
    expect(imported.organizations).toBe(2);

    // Only the organization that monitors hears of it, with its own count.
    const notices = await test.database.db
      .selectFrom("webhook_events")
      .selectAll()
      .where("type", "=", "event.impacted")
      .execute();
    const [river] = orgs;
    expect(notices.map((notice) => [notice.org_id, notice.url])).toEqual([
      [river?.orgId, (await monitoringSettings(test.database.db, river?.orgId ?? "")).callbackUrl],
    ]);
    const body = JSON.parse(notices[0]?.body ?? "{}");
    expect(body).toMatchObject({
      type: "event.impacted",
      data: { event_id: imported.eventId, name: "Charles River flood", peril: "flood", date: null },
    });
    expect(body.data.impacted_properties).toBe((await expectedFor(river?.propertyIds ?? [])).size);
  });

  it("finds the same impacts searching on worker threads, each with its own connection", async () => {
    const impactsOf = async (eventId: string) =>
      test.database.db
        .selectFrom("event_impacts")
        .select(["org_id", "property_id", "parcel_share_inside", "buildings_inside", "buildings_total", "intensity"])
        .where("event_id", "=", eventId)
        .orderBy("property_id")
        .execute();
    const here = await importEvent(test.database, { file: FLOOD, name: "Flood, searched here", peril: "flood" });
    const threaded = await importEvent(test.database, {
      file: FLOOD,
      name: "Flood, searched on threads",
      peril: "flood",
      searchThreads: { databaseUrl: test.url, count: 3 },
    });
    expect(threaded.impactedProperties).toBe(here.impactedProperties);
    expect(threaded.organizations).toBe(2);
    const found = await impactsOf(threaded.eventId);
    expect(found.length).toBeGreaterThan(10);
    expect(found).toEqual(await impactsOf(here.eventId));
  });
});
