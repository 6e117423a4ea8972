import type { ChangedArea } from "../../changes/changed-area.js";
import { bboxesMeet } from "../geometry/bboxes-meet.js";
import { bboxOf, largestShare } from "../geometry/index.js";
import { INDEXED_FROM_EDGES } from "../geometry/indexed-edges.js";
import { vertexCount } from "../geometry/positions.js";
import { boxesInTiles } from "../store/boxes-in-tiles.js";
import { decodeGeometry } from "../store/geometry-codec.js";
import { geometryRows } from "../store/read-spatial-rows.js";
import { amongIds, type GeoSource } from "../store/spatial-filter.js";
import type { Area, BBox } from "../types.js";
import { CandidateParcels } from "./candidate-parcels.js";
import { OneAtATime } from "./one-at-a-time.js";
import type { ImportContext } from "./run-import.js";

const PAGE = 1000;

/** Boundaries one assigner keeps between chunks (a chunk adds its own): neighbouring footprints share them. */
const KEPT_BOUNDARIES = 20_000;

/** A building's parcel and the share of its footprint that parcel holds; none when no parcel overlaps it. */
export type Owner = { parcelId: number; share: number } | undefined;

/**
 * A candidate parcel's boundary with its box: each is met by the dozens of footprints around it. A lot of a few
 * dozen vertices is kept as its stored bytes and parsed again for each footprint whose box meets its box: kept
 * parsed, the arrays of thousands of lots lived long enough for the collector to copy and promote them, and a
 * building import's thread spent more collecting them than parsing them again costs. A lot of many vertices is kept
 * parsed, with the index of its edges that the first comparison builds (`indexed-edges.ts`).
 */
interface Boundary {
  bytes: Uint8Array;
  box: BBox;
  parsed: Area | undefined;
}

/** A candidate as {@link largestShare} takes it. */
interface Candidate {
  id: number;
  area: Area;
  box: BBox;
}

/** Footprints looked for at once: their candidates' boundaries missing are read in one statement. */
const FOOTPRINTS_AT_ONCE = 500;

/**
 * Finds the parcels of buildings where no parcel is written meanwhile: inside the transaction of a building import
 * or at the end of a parcel import, or on a building import's thread (`import-threads.ts`, which reads the parcels
 * committed; a building import writes none). The candidates come from the parcels' boxes kept by map cell
 * ({@link CandidateParcels}), and each candidate's boundary is read once for all the footprints around it
 * ({@link Boundary}). What it keeps is its own, never the process's cache of committed rows: a transaction may yet roll back.
 */
export class ParcelAssigner {
  readonly #source: GeoSource;
  readonly #candidates: CandidateParcels;
  readonly #kept = new Map<number, Boundary>();
  readonly #mostKept: number;
  readonly #calls = new OneAtATime();

  /**
   * `source` reads inside the import's transaction, or on an import thread's own connection; `mostKept` bounds the
   * boundaries kept (fewer in tests).
   */
  constructor(source: GeoSource, mostKept = KEPT_BOUNDARIES) {
    this.#source = source;
    this.#candidates = new CandidateParcels(source);
    this.#mostKept = mostKept;
  }

  /**
   * For each footprint, the parcel holding the largest share of it among every dataset's parcels, with that share
   * (0..1). A rowhouse whose wall sits on the lot line belongs to one lot, not two.
   * Calls run one after another ({@link OneAtATime}): run together, one forgot boundaries another had found kept,
   * which then lost its footprints' parcels.
   */
  owningParcels(footprints: readonly Area[]): Promise<Owner[]> {
    return this.#calls.run(() => this.#owningParcels(footprints));
  }

  async #owningParcels(footprints: readonly Area[]): Promise<Owner[]> {
    const owners: Owner[] = [];
    for (let start = 0; start < footprints.length; start += FOOTPRINTS_AT_ONCE) {
      const chunk = footprints.slice(start, start + FOOTPRINTS_AT_ONCE);
      // Candidates in id order: the order ties are broken in.
      const candidates = await this.#candidates.meeting(chunk.map((footprint) => bboxOf(footprint)));
      await this.#keepBoundaries(candidates);
      for (const [i, footprint] of chunk.entries()) {
        // A loop, not flatMap: this runs for every footprint of an import.
        const near: Candidate[] = [];
        const box = bboxOf(footprint);
        for (const id of candidates[i] ?? []) {
          const boundary = this.#kept.get(id);
          // Parsed only when the boxes meet, as largestShare would first check.
          if (boundary && bboxesMeet(box, boundary.box)) {
            near.push({ id, box: boundary.box, area: boundary.parsed ?? (decodeGeometry(boundary.bytes) as Area) });
          }
        }
        const best = largestShare(footprint, near);
        owners.push(best && best.share > 0 ? { parcelId: best.id, share: best.share } : undefined);
      }
      // Only once the chunk is done: it still needs every boundary it read.
      if (this.#kept.size > this.#mostKept) this.#forgetOldestHalf();
    }
    return owners;
  }

  /** Reads, in one statement, the boundaries of the candidates not kept from earlier footprints. */
  async #keepBoundaries(candidates: number[][]): Promise<void> {
    const missing = new Set<number>();
    for (const ids of candidates) {
      for (const id of ids) if (!this.#kept.has(id)) missing.add(id);
    }
    if (missing.size === 0) return;
    for (const row of await geometryRows(this.#source, "parcels", [...missing])) {
      const area = decodeGeometry(row.geometry) as Area;
      this.#kept.set(row.id, {
        // A copy of its own: a driver's small Buffer may be a slice of a shared block, which keeping it would keep.
        bytes: new Uint8Array(row.geometry),
        box: bboxOf(area),
        parsed: vertexCount(area) > INDEXED_FROM_EDGES ? area : undefined,
      });
    }
  }

  /**
   * The older half forgotten at once. One at a time, each from a new iterator, cost a walk over the entries deleted
   * before it (a Map keeps their places until it is rebuilt): 27 µs a parcel, a tenth of a building thread's time.
   */
  #forgetOldestHalf(): void {
    let forgetting = this.#kept.size / 2;
    for (const id of this.#kept.keys()) {
      this.#kept.delete(id);
      if (--forgetting <= 0) return;
    }
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
  for await (const tile of boxesInTiles(source, "buildings", extent, TILE, (box) => !area.meets(box))) {
    const ids = tile.filter((building) => area.meets(building.box)).map((building) => building.id);
    for (let start = 0; start < ids.length; start += PAGE)
      await reassignPage(context, assigner, ids.slice(start, start + PAGE));
  }
}

async function reassignPage(
  context: Pick<ImportContext, "trx" | "dialect">,
  assigner: ParcelAssigner,
  ids: number[],
): Promise<void> {
  const page = await context.trx
    .selectFrom("buildings")
    .select(["building_id", "footprint", "parcel_id", "parcel_share"])
    .where(amongIds(context.dialect, "building_id", ids))
    .orderBy("building_id")
    .execute();
  const owners = await assigner.owningParcels(page.map((building) => decodeGeometry(building.footprint) as Area));
  for (const [i, building] of page.entries()) {
    const owner = owners[i];
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
}
