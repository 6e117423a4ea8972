import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { containsPoint } from "../../geo/geometry/index.js";
import { importDemoNeighbourhood } from "../../geo/import/import-demo-neighbourhood.js";
import type { Building, Parcel } from "../../geo/store/geo-rows.js";
import type { JobRunner } from "../../jobs/index.js";
import { addCallbackPrefix } from "../../tenancy/callback-prefixes.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import {
  type ReceivedHook,
  startWebhookReceiver,
  verifiedHook,
  type WebhookReceiver,
} from "../../test/webhook-receiver.js";
import { createJobRunner } from "../../workers/background-work.js";
import { demoLotWithBuildings, iframeTokenFor, type PageCall, pageCaller } from "../test-page-api.js";

describe("POST /embed/api/footprints (the insured buildings of a policy)", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let page: PageCall;
  let otherToken: string;
  let runner: JobRunner;
  let receiver: WebhookReceiver;
  let hookUrl: string;
  let received: ReceivedHook[] = [];
  let lot: { parcel: Parcel; buildings: Building[]; addresses: string[] };
  let neighbour: { parcel: Parcel; buildings: Building[] };

  beforeAll(async () => {
    test = await createTestApp({ LOTLINE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1" });
    await importDemoNeighbourhood(test.services.database);
    tenant = await createTenant(test.services);
    other = await createTenant(test.services, "Other Mutual");
    page = pageCaller(test, await iframeTokenFor(test, tenant.orgId));
    otherToken = await iframeTokenFor(test, other.orgId);
    runner = createJobRunner(test.services);
    receiver = await startWebhookReceiver();
    hookUrl = receiver.url;
    received = receiver.received;
    await addCallbackPrefix(test.services.db, tenant.orgId, hookUrl);
    lot = await demoLotWithBuildings(test, 2);
    neighbour = await demoLotWithBuildings(test, 1, 5);
  });
  afterAll(async () => {
    await receiver?.close();
    await test.close();
  });

  const submit = (payload: unknown, token?: string) => page("POST", "/embed/api/footprints", { payload, token });
  const count = async (table: "properties" | "webhook_events") =>
    Number(
      (
        await test.services.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("stores the selection, delivers a signed footprint.submitted webhook, and the record lists the buildings", async () => {
    const [house, shed] = lot.buildings as [Building, Building];
    const address = lot.addresses[0] ?? "";
    const response = await submit({
      address,
      external_id: "POL-FP-1",
      callback_url: `${hookUrl}footprints`,
      parcel_id: lot.parcel.parcelId,
      buildings: [{ building_id: house.buildingId, role: "primary_dwelling" }, { building_id: shed.buildingId }],
    });
    expect(response.statusCode).toBe(202);
    const accepted = response.json();
    expect(accepted.address).toBe(address);
    expect(accepted.webhook_id).toMatch(/^msg_/);
    expect(accepted.buildings).toHaveLength(2);
    expect(accepted.buildings[0]).toMatchObject({
      building_id: house.buildingId,
      role: "primary_dwelling",
      footprint: house.footprint,
      area_m2: Math.round(house.areaM2 * 100) / 100,
    });
    expect(accepted.buildings[1]).toMatchObject({ building_id: shed.buildingId, role: null });
    for (const [index, building] of [house, shed].entries()) {
      const { lon, lat } = accepted.buildings[index].centroid;
      expect(containsPoint(building.footprint, [lon, lat])).toBe(true);
    }

    const pending = await page("GET", `/embed/api/webhook-deliveries/${accepted.webhook_id}`);
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toMatchObject({
      webhook_id: accepted.webhook_id,
      type: "footprint.submitted",
      url: `${hookUrl}footprints`,
      status: "pending",
      delivered_at: null,
      attempts: [],
    });

    await runner.drain();

    const delivery = received.find((hit) => hit.headers["webhook-id"] === accepted.webhook_id);
    expect(delivery).toBeDefined();
    const verified = verifiedHook(tenant.webhookSecret, delivery);
    expect(verified.type).toBe("footprint.submitted");
    expect(verified.data).toEqual({
      property_id: accepted.property_id,
      external_id: "POL-FP-1",
      address,
      parcel_source_id: lot.parcel.sourceId,
      buildings: accepted.buildings,
    });

    const delivered = (await page("GET", `/embed/api/webhook-deliveries/${accepted.webhook_id}`)).json();
    expect(delivered.status).toBe("delivered");
    expect(delivered.delivered_at).not.toBeNull();
    expect(delivered.attempts).toHaveLength(1);
    expect(delivered.attempts[0].status_code).toBe(204);

    const record = (await page("GET", `/embed/api/properties/${accepted.property_id}`)).json();
    expect(record.policy_buildings).toEqual(accepted.buildings);
    expect(record.address).toBe(address);
    expect(record.location).toEqual(accepted.buildings[0].centroid);
    expect(record.policy.external_id).toBe("POL-FP-1");
  });

  it("without a callback_url, stores the selection and records no webhook; the parcel then places the pin", async () => {
    const events = await count("webhook_events");
    const [, shed] = lot.buildings as [Building, Building];
    const response = await submit({
      address: "Somewhere 1",
      parcel_id: lot.parcel.parcelId,
      buildings: [{ building_id: shed.buildingId, role: "other_structure" }],
    });
    expect(response.statusCode).toBe(202);
    const accepted = response.json();
    expect(accepted.webhook_id).toBeNull();
    expect(await count("webhook_events")).toBe(events);
    const record = (await page("GET", `/embed/api/properties/${accepted.property_id}`)).json();
    expect(record.policy_buildings.map((b: { role: string }) => b.role)).toEqual(["other_structure"]);
    expect(record.policy.external_id).toBeNull();
    expect(containsPoint(lot.parcel.boundary, [record.location.lon, record.location.lat])).toBe(true);
  });

  it("stores the selection on the record an order made for the same external id, replacing the earlier one", async () => {
    const [house] = lot.buildings as [Building];
    const placed = (
      await page("POST", "/embed/api/orders", { payload: { address: lot.addresses[0], external_id: "POL-FP-3" } })
    ).json();
    const first = (
      await submit({
        address: "Selection one",
        external_id: "POL-FP-3",
        parcel_id: lot.parcel.parcelId,
        buildings: lot.buildings.map((b) => ({ building_id: b.buildingId })),
      })
    ).json();
    const second = (
      await submit({
        address: "Selection two",
        external_id: "POL-FP-3",
        parcel_id: lot.parcel.parcelId,
        buildings: [{ building_id: house.buildingId, role: "primary_dwelling" }],
      })
    ).json();
    expect(first.property_id).toBe(placed.property_id);
    expect(second.property_id).toBe(placed.property_id);
    const record = (await page("GET", `/embed/api/properties/${placed.property_id}`)).json();
    expect(record.policy_buildings.map((b: { building_id: number }) => b.building_id)).toEqual([house.buildingId]);
    expect(record.address).toBe("Selection two");
  });

  it("refuses a selection it cannot store, with a precise code, and writes nothing", async () => {
    const [house] = lot.buildings as [Building];
    const [elsewhere] = neighbour.buildings as [Building];
    const base = { address: "1 Test St", parcel_id: lot.parcel.parcelId };
    const before = [await count("properties"), await count("webhook_events")];
    const cases: Array<[unknown, number, string, string?]> = [
      [{ ...base, parcel_id: 99_999_999, buildings: [{ building_id: house.buildingId }] }, 404, "parcel_not_found"],
      [
        { ...base, buildings: [{ building_id: house.buildingId }, { building_id: elsewhere.buildingId }] },
        422,
        "building_not_on_parcel",
        `building ${elsewhere.buildingId}`,
      ],
      [
        {
          ...base,
          buildings: [{ building_id: house.buildingId }, { building_id: house.buildingId, role: "primary_dwelling" }],
        },
        400,
        "duplicate_building_id",
        `building ${house.buildingId}`,
      ],
      [
        {
          ...base,
          callback_url: "https://elsewhere.example.com/hooks/x",
          buildings: [{ building_id: house.buildingId }],
        },
        422,
        "callback_url_not_registered",
      ],
      [{ ...base, buildings: [] }, 400, "invalid_request"],
      [{ ...base, buildings: [{ building_id: house.buildingId, role: "garage" }] }, 400, "invalid_request"],
      [{ ...base, buildings: [{ building_id: house.buildingId }], colour: "red" }, 400, "invalid_request"],
      [{ parcel_id: lot.parcel.parcelId, buildings: [{ building_id: house.buildingId }] }, 400, "invalid_request"],
    ];
    for (const [payload, status, code, detail] of cases) {
      const response = await submit(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(response.json().code).toBe(code);
      if (detail) expect(response.json().detail).toContain(detail);
    }
    expect([await count("properties"), await count("webhook_events")]).toEqual(before);
  });

  it("keeps each organization's records and deliveries to itself", async () => {
    const [house] = lot.buildings as [Building];
    const accepted = (
      await submit({
        address: "1 Own St",
        callback_url: `${hookUrl}own`,
        parcel_id: lot.parcel.parcelId,
        buildings: [{ building_id: house.buildingId }],
      })
    ).json();
    const theirs = { token: otherToken };
    const delivery = await page("GET", `/embed/api/webhook-deliveries/${accepted.webhook_id}`, theirs);
    expect(delivery.statusCode).toBe(404);
    expect(delivery.json().code).toBe("webhook_delivery_not_found");
    const record = await page("GET", `/embed/api/properties/${accepted.property_id}`, theirs);
    expect(record.statusCode).toBe(404);
    expect(record.json().code).toBe("property_not_found");
    // Their callback prefixes are their own: ours is not registered for them.
    const refused = await submit(
      {
        address: "1 Own St",
        callback_url: `${hookUrl}own`,
        parcel_id: lot.parcel.parcelId,
        buildings: [{ building_id: house.buildingId }],
      },
      otherToken,
    );
    expect(refused.json().code).toBe("callback_url_not_registered");
  });

  it("needs an iframe session: a data API token is refused", async () => {
    const response = await submit({}, await accessTokenFor(test, tenant));
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("session_ended");
  });
});
