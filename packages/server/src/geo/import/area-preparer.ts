import { type Reprojection, reprojectionFrom } from "../readers/crs.js";
import { asBuffer, decodeGeometry } from "../store/geometry-codec.js";
import type { Area } from "../types.js";
import {
  attributesOf,
  groupAreas,
  type Measured,
  measure,
  type PreparedAreas,
  prepareAreas,
  readBatch,
  type SourceIds,
  sourceIdOf,
} from "./area-batch.js";
import type { Owner, ParcelAssigner } from "./assign-buildings.js";
import { type PackedGeometries, packGeometries, transferList, unpackGeometries } from "./geometry-transfer.js";
import type { RecordOutcome, Rejection } from "./import-summary.js";
import { type ImportThreadOptions, ImportThreads } from "./import-threads.js";
import type { BatchRecord, ReadRecord } from "./run-import.js";

/**
 * What an import thread is given of a batch of parcels or buildings: each record's source id and geometry, or the
 * records' texts, which the thread parses (a parcel import's thread has time to spare, its main thread none).
 */
export type AreaBatch =
  | { ids: Array<string | Rejection>; geometries: PackedGeometries }
  | { texts: string[]; numbers: number[] };

/**
 * What it gives back: each area's geometry as validated, in its stored bytes (arrays copied between threads arrive as boxed
 * numbers, slower to read), its box and area, and for buildings its parcel; for a batch of texts, each area's
 * attributes too (otherwise they stay on the main thread).
 */
export interface PreparedOnThread {
  areas: Array<
    Measured & {
      sourceId: string;
      positions: number[];
      owner?: NonNullable<Owner> | null;
      attributes?: Record<string, unknown>;
    }
  >;
  outcomes: Array<[position: number, outcome: RecordOutcome]>;
}

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
  #onThreads: ImportThreads<AreaBatch, PreparedOnThread> | undefined;

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
  answer: Promise<PreparedOnThread>,
  properties: Array<Record<string, unknown> | undefined>,
): Promise<PreparedAreas> {
  const onThread = await answer;
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
  const geometries = texts ? records.map((record) => record.feature.geometry) : unpackGeometries(batch.geometries);
  const { prepared, outcomes } = groupAreas(sourceIds, geometries);
  const areas = [...prepared.values()];
  const owners = assigner ? await assigner.owningParcels(areas.map((area) => area.geometry)) : undefined;
  return {
    areas: areas.map((area, i) => ({
      sourceId: area.sourceId,
      positions: area.positions,
      ...measure(area),
      ...(owners ? { owner: owners[i] ?? null } : {}),
      ...(texts ? { attributes: attributesOf(records, area.positions) } : {}),
    })),
    outcomes: outcomes.flatMap((outcome, position) => (outcome === undefined ? [] : [[position, outcome]])),
  };
}
