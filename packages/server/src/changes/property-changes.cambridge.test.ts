import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PropertyChangedData } from "@lotline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bboxOf } from "../geo/geometry/bbox-of.js";
import { bboxesMeet } from "../geo/geometry/bboxes-meet.js";
import { intersects, representativePoint, validateArea } from "../geo/geometry/index.js";
import { importFile } from "../geo/import/import-file.js";
import { collect } from "../geo/readers/test-collect.js";
import type { Area } from "../geo/types.js";
import { JobRunner } from "../jobs/index.js";
import { setMonitoringCallback } from "../monitoring/monitoring-settings.js";
import { createOrder } from "../orders/create-order.js";
import { getPropertyRecord } from "../orders/property-records.js";
import type { ThirdPartyResult } from "../products/third-party-product.js";
import { addCallbackPrefix } from "../tenancy/callback-prefixes.js";
import { createOrganization } from "../tenancy/organizations.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import { getVersion, listVersions } from "../versions/version-queries.js";
import { orderHandlers } from "../workers/background-work.js";

const DATA = fileURLToPath(new URL("../../../../../shared/data/cambridge/", import.meta.url));
const FLOOD = join(DATA, "layers/fema-floodplain-100yr.geojson");
const LAYER = "FEMA flood zones";
const FEATURE = `third_party.layers[dataset=${LAYER}].features[source_id=`;

interface Zone {
  id: string;
  area: Area;
}

/**
 * FEMA redraws a flood map: the real Cambridge 1 % zone is imported as a layer under two organizations' orders,
 * then imported again without one of its polygons. Exactly the ordered properties whose lots that polygon met get
 * a new version of their record (and, where the organization monitors, one `property.changed` with the diff);
 * the others keep theirs; the same file once more changes nothing.
 */
describe.skipIf(!existsSync(FLOOD))("a flood layer redrawn under ordered properties (real Cambridge data)", () => {
  let test: TestDatabase;
  let folder: string;
  let removed: Zone;
  let withoutRemoved: string;
  const monitored: number[] = [];
  const unmonitored: number[] = [];
  /** Properties whose lots the removed polygon meets: they must change, and only they. */
  const metByRemoved = new Set<number>();

  const importFlood = (file: string) =>
    importFile(test.database, { kind: "layer", file, name: LAYER, idField: "fld_ar_id", vintage: "FIRM 2010" });

  const changeNotices = async () => {
    const rows = await test.database.db
      .selectFrom("webhook_events")
      .select(["org_id", "url", "body"])
      .where("type", "=", "property.changed")
      .execute();
    return rows.map((row) => ({ ...row, data: (JSON.parse(row.body) as { data: PropertyChangedData }).data }));
  };

  beforeAll(async () => {
    test = await createTestDatabase();
    const { database } = test;
    folder = await mkdtemp(join(tmpdir(), "flood-redrawn-"));
    await importFile(database, { kind: "parcels", file: join(DATA, "parcels-fy2014.topojson"), idField: "ML" });
    expect((await importFlood(FLOOD)).imported).toBe(21);

    const collection = JSON.parse(await readFile(FLOOD, "utf8")) as {
      features: Array<{ properties: { fld_ar_id: string }; geometry: Area }>;
    };
    const zones: Zone[] = collection.features.map((feature) => {
      const checked = validateArea(feature.geometry);
      if (!checked.valid) throw new Error(`zone ${feature.properties.fld_ar_id} is invalid`);
      return { id: feature.properties.fld_ar_id, area: checked.geometry };
    });
    const lots: Area[] = [];
    for (const record of await collect(join(DATA, "parcels-fy2014.topojson"))) {
      const geometry = "feature" in record ? record.feature.geometry : null;
      if (geometry?.type === "Polygon" || geometry?.type === "MultiPolygon") lots.push(geometry);
    }
    const meets = (zone: Zone, lot: Area) => bboxesMeet(bboxOf(zone.area), bboxOf(lot)) && intersects(zone.area, lot);
    // The polygon to remove: the one meeting the most lots that no other polygon meets.
    const alone = (zone: Zone) =>
      lots.filter((lot) => meets(zone, lot) && !zones.some((o) => o !== zone && meets(o, lot)));
    removed = zones.reduce((best, zone) => (alone(zone).length > alone(best).length ? zone : best));
    const metAlone = alone(removed);
    expect(metAlone.length).toBeGreaterThan(6);
    const metByOthers = lots.filter((lot) => !meets(removed, lot) && zones.some((zone) => meets(zone, lot)));
    const apart = lots.filter((lot) => !zones.some((zone) => meets(zone, lot)));
    const every = (some: Area[], count: number) => some.filter((_, i) => i % Math.floor(some.length / count) === 0);
    const picked = [...every(metAlone, 8), ...every(metByOthers, 8), ...every(apart, 6)];

    const [river, harbour] = [
      await createOrganization(database.db, "River Mutual"),
      await createOrganization(database.db, "Harbour Insurance"),
    ];
    await addCallbackPrefix(database.db, river.org_id, "https://river.example.com/hooks/");
    await setMonitoringCallback(database.db, river.org_id, "https://river.example.com/hooks/monitoring");
    for (const [i, lot] of picked.entries()) {
      const [lon, lat] = representativePoint(lot) as [number, number];
      const org = i % 2 === 0 ? river : harbour;
      const order = await createOrder(database, org.org_id, { location: { lon, lat }, external_id: `POL-${i}` });
      (org === river ? monitored : unmonitored).push(order.property_id);
      if (metAlone.includes(lot)) metByRemoved.add(order.property_id);
    }
    await new JobRunner(database, { handlers: orderHandlers(database) }).drain();
    // A lot the city publishes without an id has no parcel, so its order fails and it has no record to change.
    const withRecords = new Set(
      (await database.db.selectFrom("properties").select("property_id").where("record", "is not", null).execute()).map(
        (row) => row.property_id,
      ),
    );
    expect(withRecords.size).toBeGreaterThan(picked.length * 0.8);
    for (const list of [monitored, unmonitored])
      list.splice(0, list.length, ...list.filter((id) => withRecords.has(id)));
    for (const id of metByRemoved) if (!withRecords.has(id)) metByRemoved.delete(id);

    const fewer = { ...collection, features: collection.features.filter((f) => f.properties.fld_ar_id !== removed.id) };
    withoutRemoved = join(folder, "fema-floodplain-100yr-redrawn.geojson");
    await writeFile(withoutRemoved, JSON.stringify(fewer));
  }, 240_000);
  afterAll(async () => {
    await test?.destroy();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("before the redraw, every ordered property's record is version 1, made by its order", async () => {
    for (const propertyId of [...monitored, ...unmonitored]) {
      const orgId = await orgOf(propertyId);
      const { data } = await listVersions(test.database.db, orgId, propertyId);
      expect(data.map(({ version, cause }) => ({ version, cause }))).toEqual([{ version: 1, cause: "order" }]);
      expect(data[0]?.datasets.map((dataset) => dataset.dataset)).toContain(LAYER);
    }
    const flooded = [...metByRemoved][0] as number;
    const layer = await floodLayerOf(flooded);
    expect(layer?.features.map((feature) => feature.source_id)).toEqual([removed.id]);
  });

  it("importing the layer without one polygon changes exactly the records of the lots it met", async () => {
    const summary = await importFlood(withoutRemoved);
    expect(summary).toMatchObject({ read: 20, imported: 0, updated: 0, unchanged: 20, rejected: 0 });
    expect(summary.properties.changed).toBe(metByRemoved.size);

    for (const propertyId of [...monitored, ...unmonitored]) {
      const record = await getPropertyRecord(test.database.db, await orgOf(propertyId), propertyId);
      expect(record.version, `property ${propertyId}`).toBe(metByRemoved.has(propertyId) ? 2 : 1);
    }

    // The monitoring organization hears of each of its changed properties once, with the diff; the other, never.
    const notices = await changeNotices();
    const expected = monitored.filter((id) => metByRemoved.has(id));
    expect(expected.length).toBeGreaterThan(1);
    expect(notices.map((notice) => notice.data.property_id).sort((a, b) => a - b)).toEqual(expected);
    for (const notice of notices) {
      expect(notice.url).toBe("https://river.example.com/hooks/monitoring");
      expect(notice.data).toMatchObject({ version: 2, external_id: expect.stringMatching(/^POL-\d+$/) });
      const gone = notice.data.changes.find((change) => change.path === `${FEATURE}${removed.id}]`);
      expect(gone?.before).toMatchObject({ source_id: removed.id, attributes: { fld_zone: "AE" } });
      expect(gone?.after).toBeNull();
      expect(notice.data.changes).toContainEqual({
        path: `third_party.layers[dataset=${LAYER}].intersects`,
        before: true,
        after: false,
      });
    }
  });

  it("keeps the version before the change whole, and lists both with the datasets they came from", async () => {
    const propertyId = [...metByRemoved][0] as number;
    const orgId = await orgOf(propertyId);
    const { data } = await listVersions(test.database.db, orgId, propertyId);
    expect(data.map(({ version, cause }) => ({ version, cause }))).toEqual([
      { version: 2, cause: "data_change" },
      { version: 1, cause: "order" },
    ]);
    expect(data[0]?.datasets.find((dataset) => dataset.dataset === LAYER)).toMatchObject({ vintage: "FIRM 2010" });
    const first = await getVersion(test.database.db, orgId, propertyId, 1);
    const layerThen = (first.third_party as ThirdPartyResult).layers.find((layer) => layer.dataset === LAYER);
    expect(layerThen).toMatchObject({ intersects: true, features: [{ source_id: removed.id }] });
    expect((await floodLayerOf(propertyId))?.features).toEqual([]);
    await expect(getVersion(test.database.db, orgId, propertyId, 3)).rejects.toMatchObject({
      code: "version_not_found",
    });
  });

  it("importing the same file once more sends nothing and makes no version", async () => {
    const before = (await changeNotices()).length;
    const summary = await importFlood(withoutRemoved);
    expect(summary).toMatchObject({ read: 20, imported: 0, updated: 0, unchanged: 20 });
    expect(summary.properties.changed).toBe(0);
    expect(await changeNotices()).toHaveLength(before);
    const versions = await test.database.db.selectFrom("property_versions").select("property_id").execute();
    expect(versions).toHaveLength(metByRemoved.size);
  });

  async function orgOf(propertyId: number): Promise<string> {
    const row = await test.database.db
      .selectFrom("properties")
      .select("org_id")
      .where("property_id", "=", propertyId)
      .executeTakeFirstOrThrow();
    return row.org_id;
  }

  async function floodLayerOf(propertyId: number) {
    const record = await getPropertyRecord(test.database.db, await orgOf(propertyId), propertyId);
    return (record.third_party as ThirdPartyResult).layers.find((layer) => layer.dataset === LAYER) as
      | Extract<ThirdPartyResult["layers"][number], { geometry_kind: "polygon" }>
      | undefined;
  }
});
