import { bboxOf, validateArea } from "../geometry/index.js";
import { encodeGeometry, onStoredGrid, sameStoredGeometry } from "../store/geometry-codec.js";
import { layerPartRow, layerPartsOf, type StoredPart, storedParts } from "../store/layer-parts.js";
import { amongIds, bboxColumns } from "../store/spatial-filter.js";
import type { AttributeColumns } from "../store/stored-attributes.js";
import type { BBox, Geometry } from "../types.js";
import { idFrom } from "./area-batch.js";
import { DeferredSpatialIndex } from "./deferred-spatial-index.js";
import type { RecordOutcome, Rejection } from "./import-summary.js";
import type { ImportContext, Importer, ReadRecord } from "./run-import.js";

export type LayerKind = "polygon" | "point";

export interface LayerImportOptions {
  /** The feature property holding a stable id; the feature number otherwise. */
  idField?: string;
}

/**
 * A layer (flood zones, zoning, fire stations, hydrants): polygons or points, whichever its first valid feature
 * is. A large polygon is also stored cut into parts (`store/layer-parts.ts`), which orders read instead. An import
 * replaces the layer: features the new file no longer has are removed at the end, so a layer is always exactly
 * one published vintage and nothing doubles. A feature identical to the stored one is left as it is
 * (`unchanged`); where features were added, changed or removed is noted for the records to compute again.
 */
export function layerImporter({ idField }: LayerImportOptions): Importer {
  let kind: LayerKind | undefined;
  /** Ids written by this import: a second feature with one of them is a duplicate, not an update. */
  const seen = new Set<string>();
  let spatialIndexes: Promise<Array<DeferredSpatialIndex | undefined>> | undefined;
  return {
    columns: idField === undefined ? [] : [idField],
    async importBatch(context: ImportContext, batch: ReadRecord[]) {
      spatialIndexes ??= Promise.all([
        DeferredSpatialIndex.begin(context, "layer_features"),
        DeferredSpatialIndex.begin(context, "layer_parts"),
      ]);
      await spatialIndexes;
      kind ??= (await storedKind(context)) ?? undefined;
      const outcomes: RecordOutcome[] = [];
      const accepted: Accepted[] = [];
      for (const [position, record] of batch.entries()) {
        const sourceId = idFrom(record, idField);
        if (typeof sourceId !== "string") {
          outcomes[position] = sourceId;
          continue;
        }
        const checked = checkGeometry(record.feature.geometry, kind);
        if ("reason" in checked) {
          outcomes[position] = checked;
          continue;
        }
        if (seen.has(sourceId)) {
          outcomes[position] = { reason: "duplicate_id", detail: `${sourceId} appears twice` };
          continue;
        }
        kind ??= checked.kind;
        seen.add(sourceId);
        accepted.push(acceptedFeature(position, sourceId, record, checked.geometry, context.heldRecords));
      }
      if (accepted.length === 0) return outcomes;

      const stored = await storedFeatures(
        context,
        accepted.map((entry) => entry.sourceId),
      );
      const attributeColumns = await context.attributeKeys.columnsOf(
        accepted.map((entry) => entry.record.feature.properties ?? {}),
      );
      const changed: Array<{
        sourceId: string;
        bytes: Buffer;
        attributes: AttributeColumns;
        box: BBox;
        parts: StoredPart[] | undefined;
      }> = [];
      for (const [i, entry] of accepted.entries()) {
        const earlier = stored.get(entry.sourceId);
        const { bytes, box } = entry;
        const attributes = attributeColumns[i] as AttributeColumns;
        if (
          earlier &&
          sameStoredGeometry(earlier.geometry, bytes) &&
          earlier.attribute_keys_id === attributes.attribute_keys_id &&
          earlier.attributes === attributes.attributes
        ) {
          outcomes[entry.position] = "unchanged";
          continue;
        }
        outcomes[entry.position] = earlier ? "updated" : "imported";
        if (earlier) context.changes.add(earlier.box);
        context.changes.add(box);
        const parts = entry.geometry ? storedParts(layerPartsOf(entry.geometry)) : entry.parts;
        changed.push({ sourceId: entry.sourceId, bytes, attributes, box, parts });
      }
      if (changed.length === 0) return outcomes;

      await removeStoredParts(context, changed, stored);
      await context.rows.insertWithChildren(
        "layer_features",
        changed.map(({ sourceId, bytes, attributes, box, parts }) => ({
          dataset_id: context.datasetId,
          source_id: sourceId,
          geometry: bytes,
          ...attributes,
          ...bboxColumns(box),
          import_id: context.importId,
          part_count: parts?.length ?? 0,
        })),
        { key: "source_id", id: "feature_id" },
        {
          table: "layer_parts",
          reference: "feature_id",
          rows: changed.flatMap(({ sourceId, parts = [] }) =>
            parts.map((part) => ({ parent: sourceId, row: layerPartRow(context.importId, part) })),
          ),
        },
        // Into a layer that held nothing every feature is new: a plain insert, which PostgreSQL does without first
        // looking for each row's key as an upsert does.
        context.heldRecords ? ["dataset_id", "source_id"] : undefined,
      );
      return outcomes;
    },
    async finish(context: ImportContext) {
      for (const index of (await spatialIndexes) ?? []) await index?.end(context);
      await removeUnseen(context, seen);
      if (kind) {
        await context.trx
          .updateTable("datasets")
          .set({ geometry_kind: kind })
          .where("dataset_id", "=", context.datasetId)
          .execute();
      }
    },
  };
}

/** A feature of the batch to write unless it is stored as it is: packed, with its box. */
interface Accepted {
  position: number;
  sourceId: string;
  record: ReadRecord;
  bytes: Buffer;
  box: BBox;
  /** Its parts as stored, when cut already; else its geometry, to cut only if it changed. */
  parts?: StoredPart[] | undefined;
  geometry?: Geometry;
}

/**
 * A feature accepted, put on the stored grid and packed. Into a layer that held nothing every feature is new: it
 * is cut into its parts at once too, and the record lets go of its geometry, so that the arrays of a large polygon
 * (the file's and each copy made of them) are garbage before the next feature is worked on, not held to the
 * batch's end: the 500-year flood layer of a state's size peaked at 170 MB instead of 225.
 */
function acceptedFeature(
  position: number,
  sourceId: string,
  record: ReadRecord,
  checked: Geometry,
  heldRecords: boolean,
): Accepted {
  const geometry = onStoredGrid(checked);
  const packed = { position, sourceId, record, bytes: encodeGeometry(geometry), box: bboxOf(geometry) };
  if (heldRecords) return { ...packed, geometry };
  record.feature.geometry = null;
  return { ...packed, parts: storedParts(layerPartsOf(geometry)) };
}

/**
 * The stored features of the layer with these source ids: their geometry, attributes and box. A first import of
 * the layer has none (a feature it wrote itself is seen again as a duplicate id), and then asks nothing: on
 * PostgreSQL, where a batch is stored while the next is built, a question each batch would wait for the store.
 */
async function storedFeatures(context: ImportContext, sourceIds: string[]) {
  if (!context.heldRecords) return new Map<string, never>();
  const rows = await context.trx
    .selectFrom("layer_features")
    .select([
      "feature_id",
      "source_id",
      "geometry",
      "attribute_keys_id",
      "attributes",
      "part_count",
      "min_lon",
      "min_lat",
      "max_lon",
      "max_lat",
    ])
    .where("dataset_id", "=", context.datasetId)
    .where(amongIds(context.dialect, "source_id", sourceIds))
    .execute();
  return new Map(
    rows.map((row) => [
      row.source_id,
      {
        featureId: row.feature_id,
        geometry: row.geometry,
        attribute_keys_id: row.attribute_keys_id,
        attributes: row.attributes,
        partCount: row.part_count,
        box: [row.min_lon, row.min_lat, row.max_lon, row.max_lat] as BBox,
      },
    ]),
  );
}

/**
 * The stored parts of the written features that had some: their new versions get parts of their own (or none, when
 * small enough to read whole). A first import of a layer has nothing stored, and deletes nothing.
 */
async function removeStoredParts(
  context: ImportContext,
  written: Array<{ sourceId: string }>,
  stored: Awaited<ReturnType<typeof storedFeatures>>,
): Promise<void> {
  const storedIds = written.flatMap(({ sourceId }) => {
    const earlier = stored.get(sourceId);
    return earlier && earlier.partCount > 0 ? [earlier.featureId] : [];
  });
  if (storedIds.length > 0) await context.trx.deleteFrom("layer_parts").where("feature_id", "in", storedIds).execute();
}

/** Features of the layer read a statement while looking for those the new file no longer has. */
const FEATURES_PER_PAGE = 5000;

/**
 * Removes the layer's features that the file no longer has (their parts go with them), noting where they were:
 * the properties they met are computed again. Only rows this import did not write can be gone: the rest, all of a
 * first import, are passed over by the database rather than read here.
 */
async function removeUnseen(context: ImportContext, seen: ReadonlySet<string>): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await context.trx
      .selectFrom("layer_features")
      .select(["feature_id", "source_id", "min_lon", "min_lat", "max_lon", "max_lat"])
      .where("dataset_id", "=", context.datasetId)
      .where("import_id", "<>", context.importId)
      .where("feature_id", ">", after)
      .orderBy("feature_id")
      .limit(FEATURES_PER_PAGE)
      .execute();
    const last = rows.at(-1);
    if (!last) return;
    after = last.feature_id;
    const gone = rows.filter((row) => !seen.has(row.source_id));
    for (const row of gone) context.changes.add([row.min_lon, row.min_lat, row.max_lon, row.max_lat]);
    if (gone.length > 0) {
      await context.trx
        .deleteFrom("layer_features")
        .where(
          "feature_id",
          "in",
          gone.map((row) => row.feature_id),
        )
        .execute();
    }
  }
}

async function storedKind(context: ImportContext) {
  const stored = await context.trx
    .selectFrom("datasets")
    .select("geometry_kind")
    .where("dataset_id", "=", context.datasetId)
    .executeTakeFirst();
  return stored?.geometry_kind;
}

function checkGeometry(
  geometry: Geometry | null,
  expected: LayerKind | undefined,
): { kind: LayerKind; geometry: Geometry } | Rejection {
  if (!geometry) return { reason: "missing_geometry" };
  const kind: LayerKind | undefined =
    geometry.type === "Point" || geometry.type === "MultiPoint"
      ? "point"
      : geometry.type === "Polygon" || geometry.type === "MultiPolygon"
        ? "polygon"
        : undefined;
  if (!kind) return { reason: "unsupported_geometry", detail: `${geometry.type} in a layer of polygons or points` };
  if (expected && kind !== expected) {
    return { reason: "wrong_geometry_kind", detail: `a ${kind} in a layer of ${expected}s` };
  }
  if (kind === "polygon") {
    const checked = validateArea(geometry);
    return checked.valid
      ? { kind, geometry: checked.geometry }
      : { reason: `invalid_geometry:${checked.reason}`, detail: checked.detail };
  }
  const positions =
    geometry.type === "Point" ? [geometry.coordinates] : (geometry as { coordinates: number[][] }).coordinates;
  const valid =
    positions.length > 0 &&
    positions.every(
      ([lon, lat]) =>
        Number.isFinite(lon) && Number.isFinite(lat) && Math.abs(lon as number) <= 180 && Math.abs(lat as number) <= 90,
    );
  return valid
    ? { kind, geometry }
    : { reason: "invalid_geometry:BAD_COORDINATES", detail: "a point outside WGS 84 range" };
}
