import { sql } from "kysely";
import type { ChangedArea } from "../../changes/changed-area.js";
import { bboxesMeet } from "../geometry/bboxes-meet.js";
import { bboxOf, largestShare } from "../geometry/index.js";
import { boxesInTiles } from "../store/boxes-in-tiles.js";
import { decodeGeometry } from "../store/geometry-codec.js";
import { amongIds, type GeoSource } from "../store/spatial-filter.js";
import type { Area, BBox } from "../types.js";
import { CandidateParcels } from "./candidate-parcels.js";
import { KeptBoundaries, type KeptBoundary } from "./kept-boundaries.js";
import { OneAtATime } from "./one-at-a-time.js";
import type { ImportContext } from "./run-import.js";

const PAGE = 1000;

/** Boundaries one assigner keeps between chunks (a chunk adds its own): neighbouring footprints share them. */
const KEPT_BOUNDARIES = 20_000;

/** A building's parcel and the share of its footprint that parcel holds; none when no parcel overlaps it. */
export type Owner = { parcelId: number; share: number } | undefined;

/** A candidate as {@link largestShare} takes it. */
interface Candidate {
  id: number;
  area: Area;
  box: BBox;
}

/** A kept boundary as {@link largestShare} takes it, parsed only if it is read. */
class KeptCandidate implements Candidate {
  readonly id: number;
  readonly #boundary: KeptBoundary;

  constructor(id: number, boundary: KeptBoundary) {
    this.id = id;
    this.#boundary = boundary;
  }

  get box(): BBox {
    return this.#boundary.box;
  }

  get area(): Area {
    return KeptBoundaries.area(this.#boundary);
  }
}

/** Footprints looked for at once: their candidates' boundaries missing are read in one statement. */
const FOOTPRINTS_AT_ONCE = 500;

/**
 * Finds the parcels of buildings where no parcel is written meanwhile: inside the transaction of a building import
 * or at the end of a parcel import, or on a building import's thread (`import-threads.ts`, which reads the parcels
 * committed; a building import writes none). The candidates come from the parcels' boxes kept by map cell
 * ({@link CandidateParcels}), and each candidate's boundary is read once for all the footprints around it
 * ({@link KeptBoundaries}).
 */
export class ParcelAssigner {
  readonly #candidates: CandidateParcels;
  readonly #kept: KeptBoundaries;
  readonly #calls = new OneAtATime();

  /**
   * `source` reads inside the import's transaction, or on an import thread's own connection; `mostKept` bounds the
   * boundaries kept (fewer in tests).
   */
  constructor(source: GeoSource, mostKept = KEPT_BOUNDARIES) {
    this.#candidates = new CandidateParcels(source);
    this.#kept = new KeptBoundaries(source, mostKept);
  }

  /**
   * For each footprint, the parcel holding the largest share of it among every dataset's parcels, with that share
   * (0..1). A rowhouse whose wall sits on the lot line belongs to one lot, not two. `boxes`, the footprints' own,
   * are measured here unless the caller has them.
   * Calls run one after another ({@link OneAtATime}): run together, one forgot boundaries another had found kept,
   * which then lost its footprints' parcels.
   */
  owningParcels(footprints: readonly Area[], boxes: readonly BBox[] = footprints.map(bboxOf)): Promise<Owner[]> {
    return this.#calls.run(() => this.#owningParcels(footprints, boxes));
  }

  async #owningParcels(footprints: readonly Area[], boxes: readonly BBox[]): Promise<Owner[]> {
    const owners: Owner[] = [];
    for (let start = 0; start < footprints.length; start += FOOTPRINTS_AT_ONCE) {
      const chunk = footprints.slice(start, start + FOOTPRINTS_AT_ONCE);
      const chunkBoxes = boxes.slice(start, start + FOOTPRINTS_AT_ONCE);
      // Candidates in id order: the order ties are broken in.
      const candidates = await this.#candidates.meeting(chunkBoxes);
      await this.#kept.keep(candidates);
      for (const [i, footprint] of chunk.entries()) {
        // A loop, not flatMap: this runs for every footprint of an import.
        const near: Candidate[] = [];
        const box = chunkBoxes[i] as BBox;
        for (const id of candidates[i] ?? []) {
          const boundary = this.#kept.get(id);
          // Parsed only when largestShare reads it: the boxes meet, and no lot found first holds the footprint.
          if (boundary && bboxesMeet(box, boundary.box)) {
            near.push(new KeptCandidate(id, boundary));
          }
        }
        const best = largestShare(footprint, near, box);
        owners.push(best && best.share > 0 ? { parcelId: best.id, share: best.share } : undefined);
      }
      // Only once the chunk is done: it still needs every boundary it read.
      this.#kept.trim();
    }
    return owners;
  }
}

/** The side of a tile of a changed area whose buildings are read at once, degrees: a few thousand buildings. */
const TILE = 0.05;

/**
 * Recomputes the owning parcel of every building whose box meets `area` (where parcels were added, changed or
 * removed), a page at a time: the buildings come tile by tile from their spatial index, so a state's import pays
 * for the buildings where its parcels changed, once each, and nothing where they did not.
 */
export async function reassignBuildings(
  context: Pick<ImportContext, "trx" | "dialect">,
  area: ChangedArea,
): Promise<void> {
  const { extent } = area;
  if (!extent) return;
  const source = { db: context.trx, dialect: context.dialect };
  const assigner = new ParcelAssigner(source);
  const changed: ChangedOwner[] = [];
  for await (const tile of boxesInTiles(source, "buildings", extent, TILE, (box) => !area.meets(box))) {
    // A turn of the event loop between tiles, where SQLite's statements leave none: a state's reassignment takes
    // minutes, and the command's progress line is drawn on timers.
    await new Promise(setImmediate);
    const ids = tile.filter((building) => area.meets(building.box)).map((building) => building.id);
    for (let start = 0; start < ids.length; start += PAGE) {
      changed.push(...(await changedOwners(context, assigner, ids.slice(start, start + PAGE))));
      // Full statements only until the end: one text, prepared once.
      while (changed.length >= OWNERS_PER_UPDATE) await updateOwners(context, changed.splice(0, OWNERS_PER_UPDATE));
    }
  }
  await updateOwners(context, changed);
}

/** The buildings of `ids` whose owner or share is not the one stored, with the new ones. */
async function changedOwners(
  context: Pick<ImportContext, "trx" | "dialect">,
  assigner: ParcelAssigner,
  ids: number[],
): Promise<ChangedOwner[]> {
  const page = await context.trx
    .selectFrom("buildings")
    .select(["building_id", "footprint", "parcel_id", "parcel_share"])
    .where(amongIds(context.dialect, "building_id", ids))
    .orderBy("building_id")
    .execute();
  const owners = await assigner.owningParcels(page.map((building) => decodeGeometry(building.footprint) as Area));
  const changed: ChangedOwner[] = [];
  for (const [i, building] of page.entries()) {
    const parcelId = owners[i]?.parcelId ?? null;
    const share = owners[i]?.share ?? null;
    if (parcelId !== building.parcel_id || share !== building.parcel_share) {
      changed.push({ id: building.building_id, parcelId, share });
    }
  }
  return changed;
}

interface ChangedOwner {
  id: number;
  parcelId: number | null;
  share: number | null;
}

/**
 * New owners written in one statement: SQLite copies each page a statement changes into its statement journal, a
 * file, once per statement, and a building's entry in the index by parcel lies anywhere. An update per building,
 * then per page of 1,000, were most of the time of importing a state's parcels where its buildings were already (or
 * of removing them); at 10,000 a statement (30,000 values on SQLite, within its bound on parameters), 274,200
 * buildings changed owner in 1.2 s against 5.8 s by pages and 3.6 s one by one.
 */
const OWNERS_PER_UPDATE = 10_000;

/**
 * Writes up to {@link OWNERS_PER_UPDATE} new owners in one statement. PostgreSQL is given the ids once more as a
 * condition of their own: joining the new owners alone, its planner scanned the whole table (by hash or merge join)
 * for every statement, 0.5 s each at 274,200 buildings and growing with the state.
 */
async function updateOwners(context: Pick<ImportContext, "trx" | "dialect">, changed: ChangedOwner[]): Promise<void> {
  if (changed.length === 0) return;
  if (context.dialect === "postgres") {
    const ids = changed.map((owner) => owner.id);
    await sql`update buildings set parcel_id = owner.parcel_id, parcel_share = owner.share
      from unnest(cast(${ids} as integer[]), cast(${changed.map((owner) => owner.parcelId)} as integer[]),
        cast(${changed.map((owner) => owner.share)} as double precision[])) as owner (building_id, parcel_id, share)
      where buildings.building_id = owner.building_id and buildings.building_id = any(${ids})`.execute(context.trx);
    return;
  }
  const values = changed.map(
    ({ id, parcelId, share }) =>
      sql`(cast(${id} as integer), cast(${parcelId} as integer), cast(${share} as double precision))`,
  );
  await sql`with owner (building_id, parcel_id, share) as (values ${sql.join(values)})
    update buildings set parcel_id = owner.parcel_id, parcel_share = owner.share
    from owner where buildings.building_id = owner.building_id`.execute(context.trx);
}
