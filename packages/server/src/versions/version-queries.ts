import type {
  PropertyBuilding,
  PropertyVersion,
  PropertyVersionList,
  PropertyVersionSummary,
  VersionDataset,
} from "@lotline/contract";
import type { Kysely } from "kysely";
import type { Schema, VersionCause } from "../db/schema.js";
import { NotFoundError } from "../errors.js";
import type { StoredRecord } from "../orders/property-records.js";

interface StoredVersion {
  version: number;
  created_at: number;
  cause: VersionCause;
  record: string;
}

/** Every version of the organization's property's record, the current one first. */
export async function listVersions(
  db: Kysely<Schema>,
  orgId: string,
  propertyId: number,
): Promise<PropertyVersionList> {
  const versions = await storedVersions(db, orgId, propertyId);
  return { data: versions.map((stored) => summaryOf(stored, JSON.parse(stored.record) as StoredRecord)) };
}

/** One version of the organization's property's record, as it was. */
export async function getVersion(
  db: Kysely<Schema>,
  orgId: string,
  propertyId: number,
  version: number,
): Promise<PropertyVersion> {
  const stored = (await storedVersions(db, orgId, propertyId, version))[0];
  if (!stored) throw new NotFoundError("version_not_found", `property ${propertyId} has no version ${version}`);
  const record = JSON.parse(stored.record) as StoredRecord;
  const { parcel = null, structures, third_party = null } = record.products;
  return {
    property_id: propertyId,
    ...summaryOf(stored, record),
    parcel,
    buildings: (structures as { structures?: PropertyBuilding[] } | undefined)?.structures ?? [],
    data: record.products,
    third_party,
  };
}

/** The current version (on the property) and the earlier ones, newest first; 404 for another's property. */
async function storedVersions(
  db: Kysely<Schema>,
  orgId: string,
  propertyId: number,
  only?: number,
): Promise<StoredVersion[]> {
  const property = await db
    .selectFrom("properties")
    .select(["version", "version_at", "version_cause", "record", "updated_at"])
    .where("org_id", "=", orgId)
    .where("property_id", "=", propertyId)
    .executeTakeFirst();
  if (!property) throw new NotFoundError("property_not_found", `no property ${propertyId}`);
  const current: StoredVersion[] =
    property.record !== null && property.version > 0 && (only === undefined || only === property.version)
      ? [
          {
            version: property.version,
            created_at: property.version_at ?? property.updated_at,
            cause: property.version_cause ?? "order",
            record: property.record,
          },
        ]
      : [];
  const earlier = await db
    .selectFrom("property_versions")
    .select(["version", "created_at", "cause", "record"])
    .where("property_id", "=", propertyId)
    .$if(only !== undefined, (query) => query.where("version", "=", only as number))
    .orderBy("version", "desc")
    .execute();
  return [...current, ...earlier];
}

function summaryOf(stored: StoredVersion, record: StoredRecord): PropertyVersionSummary {
  return {
    version: stored.version,
    created_at: new Date(Number(stored.created_at)).toISOString(),
    cause: stored.cause,
    datasets: datasetsOf(record),
  };
}

/** The datasets that went into a record, each once, in the order its products name them, with their vintages. */
function datasetsOf(record: StoredRecord): VersionDataset[] {
  const found = new Map<string, VersionDataset>();
  for (const product of Object.values(record.products)) {
    const provenance = (product as { provenance?: VersionDataset[] } | undefined)?.provenance ?? [];
    for (const { dataset, provider, license, vintage, imported_at } of provenance) {
      if (found.has(dataset)) continue;
      found.set(dataset, {
        dataset,
        provider,
        license,
        vintage,
        ...(imported_at === undefined ? {} : { imported_at }),
      });
    }
  }
  return [...found.values()];
}
