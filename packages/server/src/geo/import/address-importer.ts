import { addressKey, formatAddress, type NormalizedAddress, normalizeAddress, streetKey } from "../address/index.js";
import { representativePoint } from "../geometry/index.js";
import { parcelAt } from "../queries/parcel-at.js";
import { decodeWkb } from "../store/wkb.js";
import type { Area, LonLat } from "../types.js";
import { DUPLICATE_REASON } from "./import-policy.js";
import type { RecordOutcome, Rejection } from "./import-summary.js";
import { replaceFromExcluded } from "./replace-from-excluded.js";
import type { ImportContext, Importer, ReadRecord } from "./run-import.js";
import { type OwnRow, storedSameAddresses, withLocalityOf } from "./same-address.js";

export interface AddressImportOptions {
  /** The column or property holding the one-line street address (`120 GORE ST`). */
  addressColumn: string;
  /** Locate each row through the parcel whose id is in this column; otherwise by the row's own point. */
  joinParcel?: string;
  /** Filled in where the source has no city or state of its own. */
  city?: string;
  state?: string;
}

interface Located {
  position: number;
  address: NormalizedAddress;
  key: string;
  parcelId: number | null;
  point: LonLat;
}

/**
 * Addresses, normalized (USPS abbreviations, ranges, units) and located either through their parcel (placed at a
 * point inside it) or by their own point (and then given the parcel containing it). Stored as the canonical
 * one-line form plus the parts lookups filter on; an address already in the dataset (the same address key) is
 * updated, and rows repeating an address already imported — a condominium's units on one line each — are merged.
 * An address differing from a stored one only by a missing city, state or ZIP code is the same address (see
 * `same-address.ts`): in this dataset it updates that row, in another dataset it is a duplicate and rejected.
 */
export function addressImporter(options: AddressImportOptions): Importer {
  /** Parcel id → the parcel's row id and a point inside it, remembered across batches (up to `KEPT_PARCELS`). */
  const parcels = new Map<string, { parcelId: number; point: LonLat } | null>();
  return {
    columns: [options.addressColumn, ...(options.joinParcel ? [options.joinParcel] : [])],
    async importBatch(context: ImportContext, batch: ReadRecord[]) {
      const outcomes: RecordOutcome[] = [];
      if (options.joinParcel) await loadParcels(context, batch, options.joinParcel, parcels);

      const read: Located[] = [];
      for (const [position, record] of batch.entries()) {
        const result = await locate(context, record, options, parcels);
        if ("reason" in result) outcomes[position] = result;
        else read.push({ ...result, position, key: addressKey(result.address) });
      }
      const { own, same } = await storedSameAddresses(context, read);
      const located = new Map<string, Located & { target: OwnRow | undefined }>();
      const claimed = new Set<number>();
      for (const [index, entry] of read.entries()) {
        const stored = same[index];
        if (stored && stored.datasetId !== context.datasetId) {
          outcomes[entry.position] = {
            reason: DUPLICATE_REASON,
            detail: `${formatAddress(entry.address)} is already in dataset "${stored.datasetName}"`,
            dataset: stored.datasetName,
          };
          continue;
        }
        if (stored) {
          // The same address written with less (or more) of its locality: the fuller of the two is kept.
          entry.address = withLocalityOf(entry.address, stored.address);
          entry.key = addressKey(entry.address);
        }
        if (located.has(entry.key)) {
          outcomes[entry.position] = "merged";
          continue;
        }
        // A stored row is written by one address of the batch. The row of this very key, taken by a fuller form of
        // the same address, is that address; another address adopting a taken row becomes a row of its own.
        const exact = own.get(entry.key);
        if (exact && claimed.has(exact.addressId)) {
          outcomes[entry.position] = "merged";
          continue;
        }
        const adopted = !exact && stored && !claimed.has(stored.addressId) ? stored : undefined;
        const target = exact ?? adopted;
        if (target) claimed.add(target.addressId);
        located.set(entry.key, { ...entry, target });
        outcomes[entry.position] =
          target === undefined ? "imported" : target.importId === context.importId ? "merged" : "updated";
      }

      const written = [...located.values()].filter(({ target }) => target?.importId !== context.importId);
      const added = written.filter(({ target }) => target === undefined).map((entry) => addressRow(context, entry));
      const changed = written.flatMap(({ target, ...entry }) =>
        target ? [{ address_id: target.addressId, ...addressRow(context, entry) }] : [],
      );
      if (added.length > 0) await context.trx.insertInto("addresses").values(added).execute();
      if (changed.length > 0) {
        await context.trx
          .insertInto("addresses")
          .values(changed)
          .onConflict((conflict) => conflict.column("address_id").doUpdateSet(replaceFromExcluded(WRITTEN_COLUMNS)))
          .execute();
      }
      return outcomes;
    },
  };
}

/** The columns an address import writes to a row. */
const WRITTEN_COLUMNS = [
  "display",
  "number",
  "number_low",
  "number_high",
  "street",
  "unit_type",
  "unit",
  "city",
  "state",
  "postcode",
  "parcel_id",
  "lon",
  "lat",
  "import_id",
  "updated_at",
] as const;

function addressRow(context: ImportContext, { address, parcelId, point }: Located) {
  return {
    dataset_id: context.datasetId,
    display: formatAddress(address),
    number: address.number ?? null,
    number_low: address.numberLow ?? null,
    number_high: address.numberHigh ?? null,
    street: streetKey(address),
    unit_type: address.unitType ?? null,
    unit: address.unit ?? null,
    city: address.city ?? null,
    state: address.state ?? null,
    postcode: address.postcode ?? null,
    parcel_id: parcelId,
    lon: point[0],
    lat: point[1],
    import_id: context.importId,
    updated_at: context.now,
  };
}

async function locate(
  context: ImportContext,
  record: ReadRecord,
  options: AddressImportOptions,
  parcels: Map<string, { parcelId: number; point: LonLat } | null>,
): Promise<Omit<Located, "position" | "key"> | Rejection> {
  const properties = record.feature.properties ?? {};
  const text = properties[options.addressColumn];
  if (typeof text !== "string" || text.trim() === "") {
    return { reason: "missing_address", detail: `no value in ${options.addressColumn}` };
  }
  const address = normalizeAddress(text, { city: options.city, state: options.state });
  if (!address) return { reason: "unparseable_address", detail: text };

  if (options.joinParcel) {
    const id = String(properties[options.joinParcel] ?? "").trim();
    const parcel = parcels.get(id);
    if (!parcel) return { reason: "parcel_not_found", detail: `no parcel "${id}"` };
    return { address, parcelId: parcel.parcelId, point: parcel.point };
  }
  const geometry = record.feature.geometry;
  if (geometry?.type !== "Point") return { reason: "missing_location", detail: "no point and no parcel to join" };
  const [lon = Number.NaN, lat = Number.NaN] = geometry.coordinates;
  const point: LonLat = [lon, lat];
  const parcel = await parcelAt({ db: context.trx, dialect: context.dialect }, point);
  return { address, parcelId: parcel?.parcelId ?? null, point };
}

/** Parcels joined to, kept between batches: enough for a county's file in parcel order, bounded for a state's. */
const KEPT_PARCELS = 50_000;

/** Looks up, once each, the parcels this batch joins to; where datasets share an id, the latest written wins. */
async function loadParcels(
  context: ImportContext,
  batch: ReadRecord[],
  column: string,
  parcels: Map<string, { parcelId: number; point: LonLat } | null>,
): Promise<void> {
  if (parcels.size > KEPT_PARCELS) parcels.clear();
  const wanted = [...new Set(batch.map((record) => String(record.feature.properties?.[column] ?? "").trim()))].filter(
    (id) => id !== "" && !parcels.has(id),
  );
  if (wanted.length === 0) return;
  const rows = await context.trx
    .selectFrom("parcels")
    .select(["parcel_id", "source_id", "boundary"])
    .where("source_id", "in", wanted)
    // The demo's generated parcel ids must never locate an imported address, nor the other way round.
    .where(
      "dataset_id",
      "in",
      context.trx.selectFrom("datasets").select("dataset_id").where("namespace", "=", context.namespace),
    )
    .orderBy("updated_at")
    .orderBy("parcel_id")
    .execute();
  for (const id of wanted) parcels.set(id, null);
  for (const row of rows) {
    parcels.set(row.source_id, {
      parcelId: row.parcel_id,
      point: representativePoint(decodeWkb(row.boundary) as Area) as LonLat,
    });
  }
}
