import { bboxOf } from "../geometry/index.js";
import { type Reprojection, reprojectionFrom } from "../readers/crs.js";
import { asBuffer, decodeGeometry } from "../store/geometry-codec.js";
import type { Area } from "../types.js";
import {
  attributesOf,
  groupAreas,
  measure,
  type PreparedAreas,
  prepareAreas,
  readBatch,
  type SourceIds,
  sourceIdOf,
} from "./area-batch.js";
import { type PackedAreas, type PreparedOnThread, unpackAreas } from "./area-transfer.js";
import type { ParcelAssigner } from "./assign-buildings.js";
import { type PackedGeometries, packedGeometryReader, packGeometries, transferList } from "./geometry-transfer.js";
import type { Rejection } from "./import-summary.js";
import { type ImportThreadOptions, ImportThreads } from "./import-threads.js";
import type { BatchRecord, ReadRecord } from "./run-import.js";

/**
 * What an import thread is given of a batch of parcels or buildings: each record's source id and geometry, or the
 * records' texts, which the thread parses (a parcel import's thread has time to spare, its main thread none).
 */
export type AreaBatch =
  | { ids: Array<string | Rejection>; geometries: PackedGeometries }
  | { texts: string[]; numbers: number[] };

/** How a preparer reads its records: their source ids, and the CRS of records it parses. */
export interface AreaSource {
  ids: SourceIds;
  crs?: string | undefined;
}

/**
 * Prepares the batches of a parcel or building import: validates, repairs and groups each batch's records
 * (`prepareAreas`) — on import threads when it has them, which also measure each area and, for buildings, find its
 * parcel; otherwise here, measuring later and only what is written. Records given as texts are parsed where they
 * are prepared.
 */
export class AreaPreparer {
  readonly #source: AreaSource;
  /** Made here, before any record is read: a `--crs` that names no projection refuses the import at once. */
  readonly #reprojection: Reprojection | null;
  readonly #threads: ImportThreadOptions | undefined;
  readonly #owners: boolean;
  // Started with the first batch: an import refused before reading any leaves no thread behind.
  #onThreads: ImportThreads<AreaBatch, PackedAreas> | undefined;

  constructor(source: AreaSource, { threads, owners }: { threads?: ImportThreadOptions; owners: boolean }) {
    this.#source = source;
    this.#reprojection = source.crs === undefined ? null : reprojectionFrom(source.crs, "--crs");
    this.#threads = threads;
    this.#owners = owners;
  }

  /** Batches to prepare ahead of the one being written: one for each thread, and one for this thread to read. */
  get ahead(): number {
    return this.#threads ? this.#threads.count + 1 : 0;
  }

  async prepare(batch: BatchRecord[]): Promise<PreparedAreas> {
    const { ids } = this.#source;
    if (!this.#threads) return prepareAreas(batch, ids, this.#reprojection);
    this.#onThreads ??= new ImportThreads(this.#threads, {
      kind: "prepare-areas",
      owners: this.#owners,
      source: this.#source,
    });
    // Only the records' properties wait for the thread. Their parsed geometry, once packed for it, is garbage
    // at once: held until the thread answered (batches later), it was copied and promoted by the collector, which
    // then took a sixth of a building import's main thread.
    const properties = batch.map((record) => ("feature" in record ? record.feature.properties : undefined));
    return fromThread(this.#onThreads.run(...toThread(batch, ids)), properties);
  }

  async close(): Promise<void> {
    await this.#onThreads?.stop();
  }
}

/**
 * A batch as the thread prepared it. `properties` are the records' own, by position, for a batch the thread was
 * given parsed; a thread that parsed the records sends their attributes.
 */
async function fromThread(
  answer: Promise<PackedAreas>,
  properties: Array<Record<string, unknown> | undefined>,
): Promise<PreparedAreas> {
  const onThread = unpackAreas(await answer);
  const prepared: PreparedAreas = { prepared: new Map(), outcomes: [] };
  for (const [position, outcome] of onThread.outcomes) prepared.outcomes[position] = outcome;
  for (const { sourceId, positions, bytes, box, areaM2, owner, attributes } of onThread.areas) {
    const area = {
      sourceId,
      attributes: attributes ?? properties[positions[0] ?? 0] ?? {},
      positions,
      // A Buffer again, which every driver binds as binary.
      measured: { bytes: asBuffer(bytes), box, areaM2 },
      ...(owner === undefined ? {} : { owner }),
    };
    prepared.prepared.set(sourceId, withGeometryOf(area, bytes));
  }
  return prepared;
}

/**
 * A batch as it goes to a thread, with the buffers to hand over: its texts as they are, or its records packed. A
 * source gives texts for every record or for none.
 */
function toThread(batch: BatchRecord[], ids: SourceIds): [AreaBatch, ArrayBuffer[]] {
  if (batch.every((record) => "text" in record)) {
    return [{ texts: batch.map((record) => record.text), numbers: batch.map((record) => record.number) }, []];
  }
  const records = batch as ReadRecord[];
  const geometries = packGeometries(records.map((record) => record.feature.geometry));
  return [{ ids: records.map((record) => sourceIdOf(ids, record)), geometries }, transferList(geometries)];
}

/**
 * `area` with its geometry decoded from its stored `bytes` when first asked for: most areas are written as the thread measured
 * them, and only a piece merged with another, a duplicate check or a parcel still to find needs the positions.
 */
function withGeometryOf<T extends object>(area: T, bytes: Uint8Array): T & { geometry: Area } {
  let geometry: Area | undefined;
  return Object.defineProperty(area, "geometry", {
    get: () => {
      geometry ??= decodeGeometry(bytes) as Area;
      return geometry;
    },
    set: (value: Area) => {
      geometry = value;
    },
    enumerable: true,
  }) as T & { geometry: Area };
}

/**
 * Records a thread takes from their geometry to their stored bytes at once. A whole batch at a time kept every
 * footprint's arrays alive while the batch's parcels were found, long enough for the collector to copy and promote
 * them; a few dozen at a time are garbage before it runs again.
 */
const RECORDS_AT_ONCE = 50;

/** An import thread's work on an {@link AreaBatch}; `assigner` finds buildings' parcels. */
export async function prepareOnThread(
  batch: AreaBatch,
  source: AreaSource,
  reprojection: Reprojection | null,
  assigner?: ParcelAssigner,
): Promise<PreparedOnThread> {
  const texts = "texts" in batch;
  const { records, sourceIds } = texts
    ? readBatch(
        batch.texts.map((text, i) => ({ number: batch.numbers[i] as number, text })),
        source.ids,
        reprojection,
      )
    : { records: [], sourceIds: batch.ids };
  const geometryAt = texts
    ? (position: number) => records[position]?.feature.geometry
    : packedGeometryReader(batch.geometries);
  const areas: PreparedOnThread["areas"] = [];
  const outcomes: PreparedOnThread["outcomes"] = [];
  for (const positions of recordsById(sourceIds, RECORDS_AT_ONCE)) {
    const grouped = groupAreas(sourceIds, geometryAt, positions);
    grouped.outcomes.forEach((outcome, position) => {
      outcomes.push([position, outcome]);
    });
    const chunk = [...grouped.prepared.values()];
    const geometries = chunk.map((area) => area.geometry);
    // Each box measured once, for finding the parcels and for storing.
    const boxes = geometries.map(bboxOf);
    const owners = assigner ? await assigner.owningParcels(geometries, boxes) : undefined;
    for (const [i, area] of chunk.entries()) {
      areas.push({
        sourceId: area.sourceId,
        positions: area.positions,
        ...measure(area, boxes[i]),
        ...(owners ? { owner: owners[i] ?? null } : {}),
        ...(texts ? { attributes: attributesOf(records, area.positions) } : {}),
      });
    }
  }
  // In the order of each area's first record, as when the batch was worked through in one go.
  areas.sort((a, b) => (a.positions[0] as number) - (b.positions[0] as number));
  return { areas, outcomes };
}

/**
 * The batch's positions about `size` at a time, the records of one source id always together (each rejected one
 * alone), in the order of each id's first record.
 */
function* recordsById(ids: ReadonlyArray<string | Rejection>, size: number): Generator<number[]> {
  const byId = new Map<string, number[]>();
  const groups: number[][] = [];
  ids.forEach((id, position) => {
    const group = typeof id === "string" ? byId.get(id) : undefined;
    if (group) group.push(position);
    else {
      const started = [position];
      if (typeof id === "string") byId.set(id, started);
      groups.push(started);
    }
  });
  let chunk: number[] = [];
  for (const group of groups) {
    chunk.push(...group);
    if (chunk.length >= size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}
