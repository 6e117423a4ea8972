import type { Insertable, Kysely } from "kysely";
import type { Schema } from "../../db/schema.js";
import { bboxOf } from "../geometry/bbox-of.js";
import { subdivide } from "../geometry/subdivide.js";
import type { Area, BBox, Geometry } from "../types.js";
import { encodeGeometry, onStoredGrid } from "./geometry-codec.js";
import { bboxColumns, bboxMeets, type GeoSource, oneOfUnindexed } from "./spatial-filter.js";

/** Parts written a statement: a part holds at most a few hundred positions. */
const PARTS_PER_STATEMENT = 200;

/**
 * A layer feature's geometry cut into parts when it is a polygon too large to read whole for every order; the
 * corners a cut makes are put on the stored grid, so that a part's box holds it as stored.
 */
export function layerPartsOf(geometry: Geometry): Area[] | undefined {
  if (geometry.type !== "Polygon" && geometry.type !== "MultiPolygon") return undefined;
  return subdivide(geometry)?.map(onStoredGrid);
}

/** A part as it is stored: its packed geometry and its box. */
export interface StoredPart {
  bytes: Buffer;
  box: BBox;
}

/** Parts as they are stored. */
export function storedParts(parts: Area[] | undefined): StoredPart[] | undefined {
  return parts?.map((part) => ({ bytes: encodeGeometry(part), box: bboxOf(part) }));
}

/** The rows of features' parts, written by import `importId`: a feature without parts has none. */
export function layerPartRows(
  importId: number,
  features: Array<{ featureId: number; parts: StoredPart[] | undefined }>,
): Insertable<Schema["layer_parts"]>[] {
  return features.flatMap(({ featureId, parts = [] }) =>
    parts.map((part) => ({ feature_id: featureId, ...layerPartRow(importId, part) })),
  );
}

/** The row of a part written by import `importId`, but for its feature's id. */
export function layerPartRow(
  importId: number,
  part: StoredPart,
): Omit<Insertable<Schema["layer_parts"]>, "feature_id"> {
  return { geometry: part.bytes, ...bboxColumns(part.box), import_id: importId };
}

/**
 * Replaces the stored parts of `features` (written by import `importId`) with the given ones: none for a feature
 * small enough to be read whole, so that a feature that shrank loses the parts of its earlier version. For the
 * migration that cut the layers already stored; an import writes its parts through its row writer instead.
 */
export async function writeLayerParts(
  db: Kysely<Schema>,
  importId: number,
  features: Array<{ featureId: number; parts: Area[] | undefined }>,
): Promise<void> {
  if (features.length === 0) return;
  await db
    .deleteFrom("layer_parts")
    .where(
      "feature_id",
      "in",
      features.map((feature) => feature.featureId),
    )
    .execute();
  const rows = layerPartRows(
    importId,
    features.map(({ featureId, parts }) => ({ featureId, parts: storedParts(parts) })),
  );
  for (let start = 0; start < rows.length; start += PARTS_PER_STATEMENT) {
    await db
      .insertInto("layer_parts")
      .values(rows.slice(start, start + PARTS_PER_STATEMENT))
      .execute();
  }
}

/**
 * The parts of `featureIds` whose boxes meet `box`, in id order: the spatial index on parts leads, the features
 * filter. Sorted here, not by the statement: no plan may then walk the primary key for the order (`idForOrder`).
 */
export async function partsMeetingBBox(source: GeoSource, featureIds: number[], box: BBox) {
  if (featureIds.length === 0) return [];
  const parts = await source.db
    .selectFrom("layer_parts")
    .select(["part_id", "feature_id", "import_id"])
    .where(bboxMeets(source.dialect, "layer_parts", box))
    .where(oneOfUnindexed(source.dialect, "layer_parts.feature_id", featureIds))
    .execute();
  return parts.sort((a, b) => a.part_id - b.part_id);
}
