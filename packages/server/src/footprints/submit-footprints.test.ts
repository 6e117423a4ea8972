import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/database.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { containsPoint } from "../geo/geometry/index.js";
import { importDemoNeighbourhood } from "../geo/import/import-demo-neighbourhood.js";
import { buildingsOfParcel } from "../geo/queries/buildings-of-parcel.js";
import { parcelById } from "../geo/queries/parcel-by-id.js";
import type { Building } from "../geo/store/geo-rows.js";
import { addCallbackPrefix } from "../tenancy/callback-prefixes.js";
import { createOrganization } from "../tenancy/organizations.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import { submitFootprints } from "./submit-footprints.js";

describe("submitFootprints", () => {
  let test: TestDatabase;
  let database: Database;
  let orgId: string;
  let parcelId: number;
  let buildings: Building[];

  beforeAll(async () => {
    test = await createTestDatabase();
    database = test.database;
    await importDemoNeighbourhood(database);
    orgId = (await createOrganization(database.db, "Test Mutual")).org_id;
    await addCallbackPrefix(database.db, orgId, "https://core.example.com/hooks/");
    const row = await database.db
      .selectFrom("buildings")
      .select("parcel_id")
      .where("parcel_id", "is not", null)
      .groupBy("parcel_id")
      .having((eb) => eb.fn.countAll(), ">=", 3)
      .orderBy("parcel_id")
      .executeTakeFirstOrThrow();
    parcelId = row.parcel_id ?? 0;
    buildings = await buildingsOfParcel(database, parcelId);
  });
  afterAll(() => test.destroy());

  const property = (propertyId: number) =>
    database.db.selectFrom("properties").selectAll().where("property_id", "=", propertyId).executeTakeFirstOrThrow();

  it("keeps the buildings in the order chosen and pins the record on the primary dwelling", async () => {
    const [a, b, c] = buildings as [Building, Building, Building];
    const accepted = await submitFootprints(database, orgId, {
      address: "1 Demo St",
      parcel_id: parcelId,
      buildings: [
        { building_id: c.buildingId },
        { building_id: a.buildingId, role: "other_structure" },
        { building_id: b.buildingId, role: "primary_dwelling" },
      ],
    });
    expect(accepted.buildings.map((x) => [x.building_id, x.role])).toEqual([
      [c.buildingId, null],
      [a.buildingId, "other_structure"],
      [b.buildingId, "primary_dwelling"],
    ]);
    const row = await property(accepted.property_id);
    expect({ lat: row.lat, lon: row.lon }).toEqual(accepted.buildings[2]?.centroid);
    expect(containsPoint(b.footprint, [row.lon ?? 0, row.lat ?? 0])).toBe(true);
    expect(row.parcel_id).toBe(parcelId);
    expect(JSON.parse(row.policy_buildings)).toEqual(accepted.buildings);
  });

  it("without a primary dwelling, pins the record inside the parcel", async () => {
    const accepted = await submitFootprints(database, orgId, {
      address: "1 Demo St",
      parcel_id: parcelId,
      buildings: [{ building_id: buildings[1]?.buildingId ?? 0, role: "other_structure" }],
    });
    const row = await property(accepted.property_id);
    const parcel = await parcelById(database, parcelId);
    if (!parcel) throw new Error(`no parcel ${parcelId}`);
    expect(containsPoint(parcel.boundary, [row.lon ?? 0, row.lat ?? 0])).toBe(true);
    expect(containsPoint(buildings[1]?.footprint ?? parcel.boundary, [row.lon ?? 0, row.lat ?? 0])).toBe(false);
  });

  it("updates the record of an external id, leaving its policy fields as they were", async () => {
    const now = Date.now();
    const { property_id } = await database.db
      .insertInto("properties")
      .values({
        org_id: orgId,
        external_id: "POL-9",
        insured_name: "Jane Doe",
        premium_amount: 10,
        created_at: now,
        updated_at: now,
      })
      .returning("property_id")
      .executeTakeFirstOrThrow();
    const accepted = await submitFootprints(database, orgId, {
      address: "9 Demo St",
      external_id: "POL-9",
      callback_url: "https://core.example.com/hooks/fp",
      parcel_id: parcelId,
      buildings: [{ building_id: buildings[0]?.buildingId ?? 0 }],
    });
    expect(accepted.property_id).toBe(property_id);
    const row = await property(property_id);
    expect(row).toMatchObject({ address: "9 Demo St", insured_name: "Jane Doe", premium_amount: 10 });
    expect(row.updated_at).toBeGreaterThanOrEqual(now);

    const event = await database.db
      .selectFrom("webhook_events")
      .selectAll()
      .where("event_id", "=", accepted.webhook_id ?? "")
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      org_id: orgId,
      type: "footprint.submitted",
      url: "https://core.example.com/hooks/fp",
    });
    expect(JSON.parse(event.body).data).toEqual({
      property_id,
      external_id: "POL-9",
      address: "9 Demo St",
      parcel_source_id: expect.stringMatching(/^DEMO-/),
      buildings: accepted.buildings,
    });
    const job = await database.db
      .selectFrom("jobs")
      .select(["kind", "payload", "status"])
      .where("payload", "like", `%${accepted.webhook_id}%`)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ kind: "deliver_webhook", status: "pending" });
  });

  it("refuses what it cannot store, before writing anything", async () => {
    const count = async () =>
      Number(
        (
          await database.db
            .selectFrom("properties")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const id = buildings[0]?.buildingId ?? 0;
    const base = { address: "1 Demo St", parcel_id: parcelId };
    await expect(
      submitFootprints(database, orgId, { ...base, buildings: [{ building_id: id }, { building_id: id }] }),
    ).rejects.toThrow(expect.objectContaining({ code: "duplicate_building_id" }));
    await expect(
      submitFootprints(database, orgId, { ...base, parcel_id: 99_999_999, buildings: [{ building_id: id }] }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      submitFootprints(database, orgId, { ...base, buildings: [{ building_id: 99_999_999 }] }),
    ).rejects.toThrow(expect.objectContaining({ code: "building_not_on_parcel" }));
    const refused = submitFootprints(database, orgId, {
      ...base,
      callback_url: "https://core.example.com/other",
      buildings: [{ building_id: id }],
    });
    await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
    await expect(refused).rejects.toThrow(expect.objectContaining({ code: "callback_url_not_registered" }));
    expect(await count()).toBe(before);
  });
});
