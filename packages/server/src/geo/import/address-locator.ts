import type { DatasetNamespace } from "../../db/schema.js";
import { type NormalizedAddress, normalizeAddress } from "../address/index.js";
import { representativePoint } from "../geometry/index.js";
import { decodeGeometry } from "../store/geometry-codec.js";
import { amongIds, type GeoSource } from "../store/spatial-filter.js";
import type { Area, LonLat } from "../types.js";
import { addressReader } from "./address-text.js";
import type { Rejection } from "./import-summary.js";
import { OneAtATime } from "./one-at-a-time.js";
import { ParcelsAtPoints } from "./parcels-at-points.js";
import type { ReadRecord } from "./run-import.js";

export interface AddressImportOptions {
  /**
   * The column or property holding the one-line street address (`120 GORE ST`), or several, comma-separated, whose
   * cells make it in that order (`NUMBER,STREET,UNIT`; see `address-text.ts`).
   */
  addressColumn: string;
  /** Columns holding each row's own town, state and ZIP code, when the street address column lacks them. */
  cityColumn?: string;
  stateColumn?: string;
  postcodeColumn?: string;
  /** Locate each row through the parcel whose id is in this column; otherwise by the row's own point. */
  joinParcel?: string;
  /** Filled in where the source has no city or state of its own. */
  city?: string;
  state?: string;
}

/** An address read from a record, normalized, and where it is. */
export interface LocatedAddress {
  address: NormalizedAddress;
  parcelId: number | null;
  point: LonLat;
}

/** Where addresses are located: among the parcels of the import's namespace. */
export interface LocateSource extends GeoSource {
  namespace: DatasetNamespace;
}

/** Parcels joined to, kept between batches: enough for a county's file in parcel order, bounded for a state's. */
const KEPT_PARCELS = 50_000;

/**
 * Reads each record's address, normalized (USPS abbreviations, ranges, units), and locates it: through its parcel
 * (placed at a point inside it) or by its own point (and then given the parcel containing it). It writes nothing,
 * so it runs in the import's transaction or on an import thread's own connection (an address import writes no
 * parcel). The parcels joined to are kept between batches.
 */
export class AddressLocator {
  readonly #options: AddressImportOptions;
  readonly #addressOf: (properties: Record<string, unknown>) => string | undefined;
  /** Parcel id → the parcel's row id and a point inside it (up to `KEPT_PARCELS`); null: no such parcel. */
  readonly #parcels = new Map<string, { parcelId: number; point: LonLat } | null>();
  readonly #mostKept: number;
  readonly #batches = new OneAtATime();
  /** Finds the parcels of addresses located by their points; made with the first batch's source. */
  #atPoints: ParcelsAtPoints | undefined;

  /** `mostKept` bounds the parcels kept (fewer in tests). */
  constructor(options: AddressImportOptions, mostKept = KEPT_PARCELS) {
    this.#options = options;
    this.#addressOf = addressReader(options);
    this.#mostKept = mostKept;
  }

  /**
   * Each record of `batch` located, or why it cannot be, by position. Batches are located one after another
   * ({@link OneAtATime}): run together, one emptied the parcels kept while another still counted on them, and its
   * addresses were refused as joined to no parcel.
   */
  locateBatch(source: LocateSource, batch: ReadRecord[]): Promise<Array<LocatedAddress | Rejection>> {
    return this.#batches.run(() => this.#locateBatch(source, batch));
  }

  async #locateBatch(source: LocateSource, batch: ReadRecord[]): Promise<Array<LocatedAddress | Rejection>> {
    if (this.#options.joinParcel) await this.#loadParcels(source, batch, this.#options.joinParcel);
    const located = batch.map((record) => this.#locate(record));
    if (!this.#options.joinParcel) {
      // Located by their own points: each given the parcel containing it, all of the batch's in one search.
      const byPoint = located.filter((entry): entry is LocatedAddress => !("reason" in entry));
      this.#atPoints ??= new ParcelsAtPoints(source);
      const parcels = await this.#atPoints.containing(byPoint.map((entry) => entry.point));
      for (const [i, entry] of byPoint.entries()) entry.parcelId = parcels[i] ?? null;
    }
    return located;
  }

  /** The record's address, and its parcel when joined by id; one located by its point has its parcel found after. */
  #locate(record: ReadRecord): LocatedAddress | Rejection {
    const options = this.#options;
    const properties = record.feature.properties ?? {};
    const text = this.#addressOf(properties);
    if (text === undefined) return { reason: "missing_address", detail: `no value in ${options.addressColumn}` };
    const address = normalizeAddress(text, { city: options.city, state: options.state });
    if (!address) return { reason: "unparseable_address", detail: text };

    if (options.joinParcel) {
      const id = String(properties[options.joinParcel] ?? "").trim();
      const parcel = this.#parcels.get(id);
      if (!parcel) return { reason: "parcel_not_found", detail: `no parcel "${id}"` };
      return { address, parcelId: parcel.parcelId, point: parcel.point };
    }
    const geometry = record.feature.geometry;
    if (geometry?.type !== "Point") return { reason: "missing_location", detail: "no point and no parcel to join" };
    const [lon = Number.NaN, lat = Number.NaN] = geometry.coordinates;
    return { address, parcelId: null, point: [lon, lat] };
  }

  /** Looks up, once each, the parcels this batch joins to; where datasets share an id, the latest written wins. */
  async #loadParcels(source: LocateSource, batch: ReadRecord[], column: string): Promise<void> {
    const parcels = this.#parcels;
    if (parcels.size > this.#mostKept) parcels.clear();
    const wanted = [...new Set(batch.map((record) => String(record.feature.properties?.[column] ?? "").trim()))].filter(
      (id) => id !== "" && !parcels.has(id),
    );
    if (wanted.length === 0) return;
    const rows = await source.db
      .selectFrom("parcels")
      .select(["parcel_id", "source_id", "boundary"])
      .where(amongIds(source.dialect, "source_id", wanted))
      // The demo's generated parcel ids must never locate an imported address, nor the other way round. Each id is
      // sought once for each dataset named here: the namespace's parcel datasets, not its layers and the rest too.
      .where(
        "dataset_id",
        "in",
        source.db
          .selectFrom("datasets")
          .select("dataset_id")
          .where("namespace", "=", source.namespace)
          .where("kind", "=", "parcels"),
      )
      .orderBy("updated_at")
      .orderBy("parcel_id")
      .execute();
    for (const id of wanted) parcels.set(id, null);
    for (const row of rows) {
      parcels.set(row.source_id, {
        parcelId: row.parcel_id,
        point: representativePoint(decodeGeometry(row.boundary) as Area) as LonLat,
      });
    }
  }
}
