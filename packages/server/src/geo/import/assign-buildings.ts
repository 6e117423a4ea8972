import { sql } from "kysely";
import { bboxOf, largestShare } from "../geometry/index.js";
import { bboxMeets } from "../store/spatial-filter.js";
import { decodeWkb } from "../store/wkb.js";
import type { Area, BBox } from "../types.js";
import type { ImportContext } from "./run-import.js";

const PAGE = 1000;

/** Parsed boundaries one assigner keeps: neighbouring footprints share their candidates. */
const KEPT_BOUNDARIES = 20_000;

/**
 * Finds the parcels of buildings inside one transaction that writes no parcel meanwhile (a building import, or the
 * end of a parcel import): each candidate's boundary is read and parsed once for all the footprints around it.
 * Its boundaries are its own, never the process's cache of committed rows: this transaction may yet roll back.
 */
export class ParcelAssigner {
  readonly #context: Pick<ImportContext, "trx" | "dialect">;
  readonly #boundaries = new Map<number, Area>();

  constructor(context: Pick<ImportContext, "trx" | "dialect">) {
    this.#context = context;
  }

  /**
   * The parcel holding the largest share of `footprint`, among every dataset's parcels, with that share (0..1);
   * none when no parcel overlaps it. A rowhouse whose wall sits on the lot line belongs to one lot, not two.
   */
  async owningParcel(footprint: Area): Promise<{ parcelId: number; share: number } | undefined> {
    const { trx, dialect } = this.#context;
    const candidates = await trx
      .selectFrom("parcels")
      .select("parcel_id")
      .where(bboxMeets(dialect, "parcels", bboxOf(footprint)))
      .orderBy("parcel_id")
      .execute();
    if (candidates.length === 0) return undefined;
    const ids = candidates.map((row) => row.parcel_id);
    await this.#read(ids.filter((id) => !this.#boundaries.has(id)));
    const best = largestShare(
      footprint,
      ids.flatMap((id) => {
        const area = this.#boundaries.get(id);
        return area ? [{ id, area }] : [];
      }),
    );
    return best && best.share > 0 ? { parcelId: best.id, share: best.share } : undefined;
  }

  /** Reads and parses the boundaries of `ids` in one statement that stays prepared whatever their number. */
  async #read(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const { trx, dialect } = this.#context;
    const among =
      dialect === "sqlite"
        ? sql`parcel_id in (select value from json_each(${JSON.stringify(ids)}))`
        : sql`parcel_id = any(${ids})`;
    const { rows } = await sql<{ parcel_id: number; boundary: Uint8Array }>`
      select parcel_id, boundary from parcels where ${among}`.execute(trx);
    for (const row of rows) {
      if (this.#boundaries.size >= KEPT_BOUNDARIES) {
        const oldest = this.#boundaries.keys().next().value;
        if (oldest !== undefined) this.#boundaries.delete(oldest);
      }
      this.#boundaries.set(row.parcel_id, decodeWkb(row.boundary) as Area);
    }
  }
}

/** Recomputes the owning parcel of every building whose box meets `box`, a page at a time. */
export async function reassignBuildings(context: Pick<ImportContext, "trx" | "dialect">, box: BBox): Promise<void> {
  const assigner = new ParcelAssigner(context);
  let after = 0;
  for (;;) {
    const page = await context.trx
      .selectFrom("buildings")
      .select(["building_id", "footprint", "parcel_id", "parcel_share"])
      .where(bboxMeets(context.dialect, "buildings", box))
      .where("building_id", ">", after)
      .orderBy("building_id")
      .limit(PAGE)
      .execute();
    for (const building of page) {
      const owner = await assigner.owningParcel(decodeWkb(building.footprint) as Area);
      const parcelId = owner?.parcelId ?? null;
      const share = owner?.share ?? null;
      if (parcelId !== building.parcel_id || share !== building.parcel_share) {
        await context.trx
          .updateTable("buildings")
          .set({ parcel_id: parcelId, parcel_share: share })
          .where("building_id", "=", building.building_id)
          .execute();
      }
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE) return;
    after = last.building_id;
  }
}
