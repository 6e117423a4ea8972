import type { FootprintAccepted, FootprintSubmission, PolicyBuilding } from "@lotline/contract";
import type { Transaction } from "kysely";
import type { Database } from "../db/database.js";
import type { Schema } from "../db/schema.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { latLonInside } from "../geo/lots/lat-lon-inside.js";
import { buildingsOfParcel } from "../geo/queries/buildings-of-parcel.js";
import { parcelById } from "../geo/queries/parcel-by-id.js";
import type { Parcel } from "../geo/store/geo-rows.js";
import { round } from "../products/round.js";
import { recordFootprintSubmitted } from "../webhooks/record-footprint-submitted.js";
import { requireRegisteredCallback } from "../webhooks/require-registered-callback.js";

/**
 * Stores the buildings a user selected on one parcel as the insured buildings of a property record, and, when a
 * `callback_url` is given, records the `footprint.submitted` webhook for it — both in one transaction, so the
 * webhook reports exactly what was stored.
 *
 * Checked first, writing nothing: the callback URL starts with a registered prefix (`callback_url_not_registered`),
 * the building ids are distinct (`duplicate_building_id`), the parcel exists (`parcel_not_found`) and each
 * building is one of the parcel's (`building_not_on_parcel`, naming it). The record is the organization's one
 * with the `external_id` when given (the oldest, as orders choose it), else a new one; its address, location
 * (the centroid of the first building chosen as primary dwelling, else a point inside the parcel), parcel and
 * insured buildings are replaced. Roles not given are stored as null.
 */
export async function submitFootprints(
  database: Database,
  orgId: string,
  submission: FootprintSubmission,
): Promise<FootprintAccepted> {
  if (submission.callback_url !== undefined)
    await requireRegisteredCallback(database.db, orgId, submission.callback_url);
  const duplicate = firstDuplicate(submission.buildings.map((building) => building.building_id));
  if (duplicate !== undefined) {
    throw new InvalidInputError("duplicate_building_id", `building ${duplicate} is listed more than once`);
  }
  const parcel = await findParcel(database, submission.parcel_id);
  const buildings = await policyBuildings(database, parcel, submission.buildings);
  const primary = submission.buildings.findIndex((building) => building.role === "primary_dwelling");
  const location = buildings[primary]?.centroid ?? latLonInside(parcel.boundary);

  return database.db.transaction().execute(async (trx) => {
    const now = Date.now();
    const propertyId = await propertyFor(trx, orgId, submission.external_id, now);
    await trx
      .updateTable("properties")
      .set({
        address: submission.address,
        lat: location.lat,
        lon: location.lon,
        parcel_id: parcel.parcelId,
        policy_buildings: JSON.stringify(buildings),
        updated_at: now,
      })
      .where("property_id", "=", propertyId)
      .execute();
    const webhookId =
      submission.callback_url === undefined
        ? null
        : await recordFootprintSubmitted(trx, orgId, submission.callback_url, {
            property_id: propertyId,
            external_id: submission.external_id ?? null,
            address: submission.address,
            parcel_source_id: parcel.sourceId,
            buildings,
          });
    return { property_id: propertyId, address: submission.address, webhook_id: webhookId, buildings };
  });
}

function firstDuplicate(ids: readonly number[]): number | undefined {
  const seen = new Set<number>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

async function findParcel(database: Database, parcelId: number): Promise<Parcel> {
  const parcel = await parcelById(database, parcelId);
  if (!parcel) throw new NotFoundError("parcel_not_found", `no parcel ${parcelId}`);
  return parcel;
}

/** The selected buildings as the policy stores them, in the order given; each must stand on the parcel. */
async function policyBuildings(
  database: Database,
  parcel: Parcel,
  selected: FootprintSubmission["buildings"],
): Promise<PolicyBuilding[]> {
  const onParcel = new Map((await buildingsOfParcel(database, parcel.parcelId)).map((b) => [b.buildingId, b]));
  return selected.map(({ building_id, role }) => {
    const building = onParcel.get(building_id);
    if (!building) {
      throw new InvalidInputError(
        "building_not_on_parcel",
        `building ${building_id} is not one of the buildings of parcel ${parcel.parcelId} (${parcel.sourceId})`,
      );
    }
    return {
      building_id,
      role: role ?? null,
      footprint: building.footprint,
      area_m2: round(building.areaM2),
      centroid: latLonInside(building.footprint),
    };
  });
}

/** The organization's record for this external id (the oldest, as orders pick it), else a new one. */
async function propertyFor(
  trx: Transaction<Schema>,
  orgId: string,
  externalId: string | undefined,
  now: number,
): Promise<number> {
  if (externalId !== undefined) {
    const existing = await trx
      .selectFrom("properties")
      .select("property_id")
      .where("org_id", "=", orgId)
      .where("external_id", "=", externalId)
      .orderBy("property_id")
      .executeTakeFirst();
    if (existing) return existing.property_id;
  }
  const created = await trx
    .insertInto("properties")
    .values({ org_id: orgId, external_id: externalId ?? null, created_at: now, updated_at: now })
    .returning("property_id")
    .executeTakeFirstOrThrow();
  return created.property_id;
}
