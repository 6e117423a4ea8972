import polygonClipping from "polygon-clipping";
import { bboxOf, geodesicArea, validateArea } from "../geometry/index.js";
import type { Reprojection } from "../readers/crs.js";
import { recordOfText } from "../readers/feature-record.js";
import { decodeGeometry, encodeGeometry, onStoredGrid, sameStoredGeometry } from "../store/geometry-codec.js";
import { amongIds } from "../store/spatial-filter.js";
import type { AttributeColumns } from "../store/stored-attributes.js";
import type { Area, BBox } from "../types.js";
import type { Owner } from "./assign-buildings.js";
import type { RecordOutcome, Rejection } from "./import-summary.js";
import type { BatchRecord, ImportContext, ReadRecord } from "./run-import.js";
import { recordLabel } from "./several-files.js";
import type { SpaceOrderedWrites } from "./space-ordered-writes.js";
import type { ComparedRow, UpdatedPieces } from "./updated-pieces.js";
import type { WrittenIds } from "./written-ids.js";

/** The batch's records with one source id, folded into one geometry. */
export interface GroupedArea {
  sourceId: string;
  geometry: Area;
  /** Positions in the batch of the records folded in; the first is the one that imports or updates. */
  positions: number[];
}

/** What a row stores of an area's geometry: its stored bytes (see `geometry-codec.ts`), its box and its geodesic area. */
export interface Measured {
  bytes: Uint8Array;
  box: BBox;
  areaM2: number;
}

/** One parcel or building to write. What a thread worked out ahead is gone when the geometry changes. */
export interface PreparedArea extends GroupedArea {
  /** The first record's properties. */
  attributes: Record<string, unknown>;
  measured?: Measured;
  /** A building's parcel as a thread found it (null: none). */
  owner?: NonNullable<Owner> | null;
}

/** A batch's areas by source id, and the outcomes of the records already decided (rejected ones). */
export interface PreparedAreas {
  prepared: Map<string, PreparedArea>;
  outcomes: RecordOutcome[];
}

/**
 * Validates (and where honest, repairs) each record's polygon and groups records by source id, uniting the pieces
 * of one id into a MultiPolygon: a lot published in several pieces is one parcel. Rejected records get their
 * outcome here; the others get theirs from {@link settleAgainstStored}.
 */
export function prepareAreas(
  batch: readonly BatchRecord[],
  ids: SourceIds,
  reprojection: Reprojection | null,
): PreparedAreas {
  const { records, sourceIds } = readBatch(batch, ids, reprojection);
  const grouped = groupAreas(sourceIds, (position) => records[position]?.feature.geometry);
  const prepared = new Map<string, PreparedArea>();
  for (const [sourceId, area] of grouped.prepared) {
    prepared.set(sourceId, { ...area, attributes: attributesOf(records, area.positions) });
  }
  return { prepared, outcomes: grouped.outcomes };
}

/** An area's attributes: the properties of the first of its records. */
export function attributesOf(batch: ReadRecord[], positions: readonly number[]): Record<string, unknown> {
  return batch[positions[0] ?? 0]?.feature.properties ?? {};
}

/**
 * {@link prepareAreas} of records given as their source ids and each one's geometry by position, for the records
 * at `positions` (all of them unless given; the records of one id in the order of the file).
 */
export function groupAreas(
  ids: ReadonlyArray<string | Rejection>,
  geometryAt: (position: number) => unknown,
  positions: Iterable<number> = ids.keys(),
): { prepared: Map<string, GroupedArea>; outcomes: RecordOutcome[] } {
  const prepared = new Map<string, GroupedArea>();
  const outcomes: RecordOutcome[] = [];
  for (const position of positions) {
    const sourceId = ids[position] as string | Rejection;
    if (typeof sourceId !== "string") {
      outcomes[position] = sourceId;
      continue;
    }
    const checked = validateArea(geometryAt(position));
    if (!checked.valid) {
      outcomes[position] = { reason: `invalid_geometry:${checked.reason}`, detail: checked.detail };
      continue;
    }
    const geometry = onStoredGrid(checked.geometry);
    const earlier = prepared.get(sourceId);
    if (earlier) {
      const united = unite(earlier.geometry, geometry);
      if (typeof united === "object" && "reason" in united) {
        outcomes[position] = united;
        continue;
      }
      earlier.geometry = united;
      earlier.positions.push(position);
      continue;
    }
    prepared.set(sourceId, { sourceId, geometry, positions: [position] });
  }
  return { prepared, outcomes };
}

/**
 * An area's stored bytes, box and geodesic area: as measured ahead, or measured now and kept (its `box` given when
 * the caller has it).
 */
export function measure(area: { geometry: Area; measured?: Measured }, box?: BBox): Measured {
  area.measured ??= {
    bytes: encodeGeometry(area.geometry),
    box: box ?? bboxOf(area.geometry),
    areaM2: geodesicArea(area.geometry),
  };
  return area.measured;
}

/**
 * Decides imported / updated / unchanged / merged for each prepared area against the rows already stored: a row
 * written by this same import is another piece of the same id (merged into it); a row from an earlier import is
 * updated, or left as it is when its geometry and attributes are the same (only stamped with this import, so
 * that a later piece of the id still merges into it). Notes where each changed area lies, and lay, among the
 * import's changes. With `written` (an import into a dataset that held nothing), only the ids it may hold are
 * looked up, and the ids written are added to it; `pieces` learns of rows updated by a piece and merged into after.
 *
 * Rows of the batch's ids that `held` keeps back for space order are written first, for the read to find them;
 * the next part of what it holds is written once the read is done. On PostgreSQL the server stores that part
 * while the batch is settled: written after, it held up the next batch's read.
 */
export async function settleAgainstStored<Row>(
  context: ImportContext,
  table: "parcels" | "buildings",
  prepared: Map<string, PreparedArea>,
  outcomes: RecordOutcome[],
  held: SpaceOrderedWrites<Row>,
  written?: WrittenIds,
  pieces?: UpdatedPieces,
): Promise<void> {
  await held.writeHeld(context, prepared.keys());
  const ids = [...prepared.keys()];
  const existing = await storedAreas(context, table, written ? ids.filter((id) => written.mayHold(id)) : ids);
  await held.writeSome(context);
  const { importId } = context;
  const attributes = await storedFormOfAttributes(context, [...prepared.values()], existing);
  const unchanged: string[] = [];
  for (const area of prepared.values()) {
    const [first, ...rest] = area.positions;
    if (first === undefined) continue;
    for (const position of rest) outcomes[position] = "merged";
    const stored = existing.get(area.sourceId);
    if (stored && stored.import_id !== importId && sameArea(stored, area, attributes.get(area) as AttributeColumns)) {
      outcomes[first] = "unchanged";
      unchanged.push(area.sourceId);
      area.positions = [];
      continue;
    }
    // Where the records may change: the area as it is now, and where it was.
    context.changes.add(area.measured?.box ?? bboxOf(area.geometry));
    if (!stored) {
      outcomes[first] = "imported";
    } else if (stored.import_id !== importId) {
      context.changes.add(bboxOf(decodeGeometry(stored.bytes)));
      outcomes[first] = "updated";
      pieces?.updated(area.sourceId, stored, measure(area).areaM2, stored.area_m2);
    } else {
      pieces?.merged(area.sourceId);
      const united = unite(decodeGeometry(stored.bytes) as Area, area.geometry);
      if (typeof united === "object" && "reason" in united) {
        outcomes[first] = united;
        area.positions = [];
      } else {
        area.geometry = united;
        area.measured = undefined;
        area.owner = undefined;
        outcomes[first] = "merged";
      }
    }
  }
  if (written) for (const area of prepared.values()) if (area.positions.length > 0) written.add(area.sourceId);
  if (unchanged.length > 0) {
    await context.trx
      .updateTable(table)
      .set({ import_id: importId })
      .where("dataset_id", "=", context.datasetId)
      .where(amongIds(context.dialect, "source_id", unchanged))
      .execute();
  }
}

function sameArea(stored: StoredArea, area: PreparedArea, attributes: AttributeColumns): boolean {
  const bytes = area.measured?.bytes ?? encodeGeometry(area.geometry);
  return (
    sameStoredGeometry(stored.bytes, bytes) &&
    stored.attribute_keys_id === attributes.attribute_keys_id &&
    stored.attributes === attributes.attributes
  );
}

type StoredArea = ComparedRow & { import_id: number; area_m2: number };

/** The attributes, in their stored form, of the areas that an earlier import stored: those that may be unchanged. */
async function storedFormOfAttributes(
  context: ImportContext,
  areas: PreparedArea[],
  existing: Map<string, StoredArea>,
): Promise<Map<PreparedArea, AttributeColumns>> {
  const earlier = areas.filter((area) => {
    const stored = existing.get(area.sourceId);
    return stored !== undefined && stored.import_id !== context.importId;
  });
  const columns = await context.attributeKeys.columnsOf(earlier.map((area) => area.attributes));
  return new Map(earlier.map((area, i) => [area, columns[i] as AttributeColumns]));
}

/** The rows of the import's dataset stored under `ids`, by source id. */
export async function storedAreas(context: ImportContext, table: "parcels" | "buildings", ids: string[]) {
  const stored = new Map<string, StoredArea>();
  if (ids.length === 0) return stored;
  const rows =
    table === "parcels"
      ? await context.trx
          .selectFrom("parcels")
          .select(["source_id", "import_id", "boundary as bytes", "attribute_keys_id", "attributes", "area_m2"])
          .where("dataset_id", "=", context.datasetId)
          .where(amongIds(context.dialect, "source_id", ids))
          .execute()
      : await context.trx
          .selectFrom("buildings")
          .select(["source_id", "import_id", "footprint as bytes", "attribute_keys_id", "attributes", "area_m2"])
          .where("dataset_id", "=", context.datasetId)
          .where(amongIds(context.dialect, "source_id", ids))
          .execute();
  for (const row of rows) stored.set(row.source_id, row);
  return stored;
}

/** The union of two areas, validated and on the stored grid; a rejection when the pieces cannot make a valid area. */
export function unite(a: Area, b: Area): Area | Rejection {
  const coordinates = (area: Area) => (area.type === "Polygon" ? [area.coordinates] : area.coordinates);
  const united = polygonClipping.union(
    coordinates(a) as polygonClipping.MultiPolygon,
    coordinates(b) as polygonClipping.MultiPolygon,
  );
  const checked = validateArea({ type: "MultiPolygon", coordinates: united });
  return checked.valid
    ? onStoredGrid(checked.geometry)
    : { reason: `invalid_geometry:${checked.reason}`, detail: `merging pieces: ${checked.detail}` };
}

/**
 * A parcel id with no digit in it (`---`, `-`, `--MD`, `ROAD`) is a placeholder that publishers use for
 * unnumbered land and street polygons: it names no lot, so such features are reported, not imported.
 */
const PLACEHOLDER_ID = /^[^0-9]*$/;

/** How an import reads each record's source id: plain data, so that an import thread can read them too. */
export type SourceIds = { kind: "parcels"; idField: string } | { kind: "buildings"; idField: string | undefined };

/** A record's source id by `ids`, or why it has none. */
export function sourceIdOf(ids: SourceIds, record: ReadRecord): string | Rejection {
  const id = idFrom(record, ids.idField);
  if (ids.kind === "parcels" && typeof id === "string" && PLACEHOLDER_ID.test(id)) {
    return { reason: "placeholder_id", detail: `"${id}" names no lot` };
  }
  return id;
}

/**
 * A batch's records read — the texts parsed, reprojected by `reprojection` — with each one's source id, or why it
 * has none: a text that does not read as a Feature is `unreadable`, as the reader says of it when it parses, and
 * stands as a record without properties or geometry.
 */
export function readBatch(
  batch: readonly BatchRecord[],
  ids: SourceIds,
  reprojection: Reprojection | null,
): { records: ReadRecord[]; sourceIds: Array<string | Rejection> } {
  const records: ReadRecord[] = [];
  const sourceIds: Array<string | Rejection> = [];
  for (const record of batch) {
    const read = "text" in record ? recordOfText(record.number, record.text, reprojection) : record;
    if ("error" in read) {
      records.push({ number: read.number, feature: { type: "Feature", properties: {}, geometry: null } });
      sourceIds.push({ reason: "unreadable", detail: read.error });
    } else {
      records.push(read);
      sourceIds.push(sourceIdOf(ids, read));
    }
  }
  return { records, sourceIds };
}

/** The value of a record's id property as text, or a rejection when it is missing. */
export function idFrom(record: ReadRecord, field: string | undefined): string | Rejection {
  if (field === undefined) return `#${recordLabel(record.number)}`;
  const value = record.feature.properties?.[field];
  if (value === undefined || value === null || String(value).trim() === "") {
    return { reason: "missing_id", detail: `no value in ${field}` };
  }
  return String(value).trim();
}
