import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PropertyChangedData, PropertyVersion, PropertyVersionList } from "@lotline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFile } from "../../geo/import/import-file.js";
import type { Area, LonLat } from "../../geo/types.js";
import type { JobRunner } from "../../jobs/index.js";
import { setMonitoringCallback } from "../../monitoring/monitoring-settings.js";
import { createOrder } from "../../orders/create-order.js";
import { addCallbackPrefix } from "../../tenancy/callback-prefixes.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import { startWebhookReceiver, verifiedHook, type WebhookReceiver } from "../../test/webhook-receiver.js";
import { createJobRunner } from "../../workers/background-work.js";

/** Lots of 0.001° along a street in a patch of the map of this test's own; a zoning district over lot 0. */
const ORIGIN: LonLat = [-97.5, 38.2];
const square = (x: number, y: number, side: number): Area => ({
  type: "Polygon",
  coordinates: [
    [
      [x, y],
      [x + side, y],
      [x + side, y + side],
      [x, y + side],
      [x, y],
    ],
  ],
});
const lot = (i: number, grow = 0) => square(ORIGIN[0] + i * 0.0015, ORIGIN[1], 0.001 + grow);
const middleOf = (i: number): LonLat => [ORIGIN[0] + i * 0.0015 + 0.0005, ORIGIN[1] + 0.0005];
const district = square(ORIGIN[0] - 0.0005, ORIGIN[1] - 0.0005, 0.0018);

describe("/v1/properties/{property_id}/versions and property.changed", () => {
  let test: TestApp;
  let folder: string;
  let river: TestTenant;
  let harbour: TestTenant;
  let token: string;
  let runner: JobRunner;
  let receiver: WebhookReceiver;
  const properties: number[] = [];

  const writeGeoJson = (name: string, features: Array<{ properties: object; geometry: Area }>) => {
    const file = join(folder, name);
    writeFileSync(
      file,
      JSON.stringify({ type: "FeatureCollection", features: features.map((f) => ({ type: "Feature", ...f })) }),
    );
    return file;
  };
  const importZoning = (zone: string) =>
    importFile(test.services.database, {
      kind: "layer",
      file: writeGeoJson(`zoning-${zone}.geojson`, [{ properties: { id: "D1", zone }, geometry: district }]),
      name: "Versions zoning",
      idField: "id",
    });
  const importLots = (grow: number) =>
    importFile(test.services.database, {
      kind: "parcels",
      file: writeGeoJson(
        `lots-${grow}.geojson`,
        [0, 1, 2].map((i) => ({ properties: { APN: `VER-${i}` }, geometry: lot(i, i === 1 ? grow : 0) })),
      ),
      idField: "APN",
      name: "Versions lots",
    });
  const get = async <T>(url: string, as = token) => {
    const response = await test.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${as}` } });
    return { status: response.statusCode, body: response.json() as T };
  };
  const changedNotices = () =>
    receiver.received
      .map((hit) => verifiedHook<{ type: string; data: PropertyChangedData }>(river.webhookSecret, hit))
      .filter((event) => event.type === "property.changed")
      .map((event) => event.data);

  beforeAll(async () => {
    test = await createTestApp({ LOTLINE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1" });
    folder = mkdtempSync(join(tmpdir(), "lotline-versions-"));
    runner = createJobRunner(test.services);
    receiver = await startWebhookReceiver();
    const hooks = receiver.url;

    await importLots(0);
    await importZoning("R1");
    river = await createTenant(test.services, "River Mutual");
    harbour = await createTenant(test.services, "Harbour Insurance");
    await addCallbackPrefix(test.services.db, river.orgId, hooks);
    await setMonitoringCallback(test.services.db, river.orgId, `${hooks}monitoring`);
    token = await accessTokenFor(test, river);
    for (const i of [0, 1, 2]) {
      const order = await createOrder(test.services.database, river.orgId, {
        location: { lon: middleOf(i)[0], lat: middleOf(i)[1] },
        external_id: `POL-V${i}`,
      });
      properties.push(order.property_id);
    }
    await runner.drain();
  });
  afterAll(async () => {
    await receiver?.close();
    await test?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("a completed order makes version 1 of the record, listed with the datasets it came from", async () => {
    const { status, body } = await get<PropertyVersionList>(`/v1/properties/${properties[0]}/versions`);
    expect(status).toBe(200);
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ version: 1, cause: "order" });
    expect(body.data[0]?.datasets.map((dataset) => dataset.dataset)).toEqual(
      expect.arrayContaining(["Versions lots", "Versions zoning"]),
    );
    const record = await get<{ version: number }>(`/v1/properties/${properties[0]}`);
    expect(record.body.version).toBe(1);
  });

  it("a district rezoned changes the record under it: version 2, and a signed property.changed with the diff", async () => {
    const summary = await importZoning("R2");
    expect(summary).toMatchObject({ updated: 1, unchanged: 0, properties: { changed: 1 } });
    await runner.drain();

    const notices = changedNotices();
    expect(notices).toEqual([
      {
        property_id: properties[0],
        external_id: "POL-V0",
        version: 2,
        changes: [
          {
            path: "third_party.layers[dataset=Versions zoning].features[source_id=D1].attributes.zone",
            before: "R1",
            after: "R2",
          },
        ],
      },
    ]);
    const { body } = await get<PropertyVersionList>(`/v1/properties/${properties[0]}/versions`);
    expect(body.data.map(({ version, cause }) => ({ version, cause }))).toEqual([
      { version: 2, cause: "data_change" },
      { version: 1, cause: "order" },
    ]);
    const zoneOf = (version: PropertyVersion) =>
      (version.third_party as { layers: Array<{ features: Array<{ attributes: { zone: string } }> }> }).layers[0]
        ?.features[0]?.attributes.zone;
    const first = await get<PropertyVersion>(`/v1/properties/${properties[0]}/versions/1`);
    const second = await get<PropertyVersion>(`/v1/properties/${properties[0]}/versions/2`);
    expect([zoneOf(first.body), zoneOf(second.body)]).toEqual(["R1", "R2"]);
    expect(first.body).toMatchObject({ property_id: properties[0], version: 1, cause: "order" });
  });

  it("a lot redrawn changes only its own record, through the recompute job, with its area in the diff", async () => {
    const before = changedNotices().length;
    const summary = await importLots(0.0002);
    expect(summary.properties.queued).toBeGreaterThanOrEqual(1);
    await runner.drain();
    const notices = changedNotices().slice(before);
    expect(notices.map((notice) => notice.property_id)).toEqual([properties[1]]);
    const paths = notices[0]?.changes.map((change) => change.path) ?? [];
    expect(paths).toEqual(expect.arrayContaining(["parcel.boundary", "parcel.area_m2"]));
    const area = notices[0]?.changes.find((change) => change.path === "parcel.area_m2");
    expect(area?.after as number).toBeGreaterThan(area?.before as number);
  });

  it("importing the same files again sends nothing", async () => {
    const before = receiver.received.length;
    expect(await importZoning("R2")).toMatchObject({ unchanged: 1, properties: { changed: 0 } });
    await importLots(0.0002);
    await runner.drain();
    expect(receiver.received.length).toBe(before);
    const { body } = await get<PropertyVersionList>(`/v1/properties/${properties[2]}/versions`);
    expect(body.data.map((version) => version.version)).toEqual([1]);
  });

  it("answers 404 for a version that does not exist and for another organization's property", async () => {
    const missing = await get<{ code: string }>(`/v1/properties/${properties[0]}/versions/9`);
    expect(missing).toMatchObject({ status: 404, body: { code: "version_not_found" } });
    const theirs = await get<{ code: string }>(
      `/v1/properties/${properties[0]}/versions`,
      await accessTokenFor(test, harbour),
    );
    expect(theirs).toMatchObject({ status: 404, body: { code: "property_not_found" } });
    const zero = await get<{ code: string }>(`/v1/properties/${properties[0]}/versions/0`);
    expect(zero.status).toBe(400);
  });
});
