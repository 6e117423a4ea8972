import { bboxOf, largestShare } from "../geometry/index.js";
import { bboxMeets } from "../store/spatial-filter.js";
import type { Area, BBox } from "../types.js";
import type { ImportContext } from "./run-import.js";

const PAGE = 1000;

/**
 * The parcel holding the largest share of `footprint`, among every dataset's parcels, with that share (0..1);
 * none when no parcel overlaps it. A rowhouse whose wall sits on the lot line belongs to one lot, not two.
 */
export async function owningParcel(
  context: Pick<ImportContext, "trx" | "dialect">,
  footprint: Area,
): Promise<{ parcelId: number; share: number } | undefined> {
  const candidates = await context.trx
    .selectFrom("parcels")
    .select(["parcel_id", "boundary"])
    .where(bboxMeets(context.dialect, "parcels", bboxOf(footprint)))
    .orderBy("parcel_id")
    .execute();
  if (candidates.length === 0) return undefined;
  const best = largestShare(
    footprint,
    candidates.map((row) => ({ id: row.parcel_id, area: JSON.parse(row.boundary) as Area })),
  );
  return best && best.share > 0 ? { parcelId: best.id, share: best.share } : undefined;
}

/** Recomputes the owning parcel of every building whose box meets `box`, a page at a time. */
export async function reassignBuildings(context: Pick<ImportContext, "trx" | "dialect">, box: BBox): Promise<void> {
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
      const owner = await owningParcel(context, JSON.parse(building.footprint));
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
