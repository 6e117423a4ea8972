import { sql } from "kysely";
import { bboxesMeet } from "../geometry/bboxes-meet.js";
import { bboxOf, geodesicArea, intersectionArea } from "../geometry/index.js";
import { decodeGeometry } from "../store/geometry-codec.js";
import { bboxMeets, oneOfUnindexed } from "../store/spatial-filter.js";
import type { Area, BBox } from "../types.js";
import type { PreparedArea } from "./area-batch.js";
import { DUPLICATE_REASON } from "./import-policy.js";
import type { RecordOutcome } from "./import-summary.js";
import type { ImportContext } from "./run-import.js";

/**
 * Two parcels or footprints overlapping by at least this share of the smaller are one feature published twice
 * (the same file under another name, a city's redraw of the same building). Neighbours sharing a wall or a lot line
 * overlap by nothing.
 */
export const DUPLICATE_OVERLAP = 0.5;

/** The other datasets of the same kind and namespace, with their extents, found once per import. */
export type OtherDatasets = Array<{ datasetId: number; name: string; extent: BBox }>;

/**
 * One truth per kind of data: a parcel or building that duplicates one of another dataset of the same kind is
 * rejected (`duplicate_of_other_dataset`, naming that dataset), so a property never counts a structure twice. Many
 * such rejections refuse the whole import through `--max-rejected`, whose message then suggests `--replace`.
 */
export async function rejectDuplicates(
  context: ImportContext,
  table: "parcels" | "buildings",
  others: OtherDatasets,
  prepared: Map<string, PreparedArea>,
  outcomes: RecordOutcome[],
): Promise<void> {
  if (others.length === 0) return;
  for (const area of prepared.values()) {
    const duplicate = await duplicateOf(context, table, others, area.geometry);
    if (!duplicate) continue;
    for (const position of area.positions) {
      outcomes[position] = {
        reason: DUPLICATE_REASON,
        detail: `the same as ${table === "parcels" ? "parcel" : "building"} ${duplicate.sourceId} of dataset "${duplicate.dataset}"`,
        dataset: duplicate.dataset,
      };
    }
    area.positions = [];
  }
}

/** The other datasets of `table`'s kind in the import's namespace that hold anything. */
export async function otherDatasets(context: ImportContext, kind: "parcels" | "buildings"): Promise<OtherDatasets> {
  const rows = await context.trx
    .selectFrom("datasets")
    .select(["dataset_id", "name", "min_lon", "min_lat", "max_lon", "max_lat"])
    .where("kind", "=", kind)
    .where("namespace", "=", context.namespace)
    .where("dataset_id", "<>", context.datasetId)
    .execute();
  return rows.flatMap((row) =>
    row.min_lon === null || row.min_lat === null || row.max_lon === null || row.max_lat === null
      ? []
      : [{ datasetId: row.dataset_id, name: row.name, extent: [row.min_lon, row.min_lat, row.max_lon, row.max_lat] }],
  );
}

async function duplicateOf(
  context: ImportContext,
  table: "parcels" | "buildings",
  others: OtherDatasets,
  area: Area,
): Promise<{ dataset: string; sourceId: string } | undefined> {
  const box = bboxOf(area);
  const near = others.filter(({ extent }) => bboxesMeet(extent, box));
  if (near.length === 0) return undefined;
  // Both tables have the same columns but for the geometry's name; the query is written once for both.
  const candidates = await context.trx
    .selectFrom(table as "parcels")
    .select([
      "dataset_id",
      "source_id",
      "area_m2",
      sql<Uint8Array>`${sql.ref(table === "parcels" ? "boundary" : "footprint")}`.as("geometry"),
    ])
    .where(bboxMeets(context.dialect, table, box))
    .where(
      oneOfUnindexed(
        context.dialect,
        `${table}.dataset_id`,
        near.map((other) => other.datasetId),
      ),
    )
    .execute();
  const areaM2 = geodesicArea(area);
  for (const candidate of candidates) {
    const overlap = intersectionArea(area, decodeGeometry(candidate.geometry) as Area);
    if (overlap >= DUPLICATE_OVERLAP * Math.min(areaM2, candidate.area_m2)) {
      const dataset = near.find((other) => other.datasetId === candidate.dataset_id)?.name ?? "?";
      return { dataset, sourceId: candidate.source_id };
    }
  }
  return undefined;
}
