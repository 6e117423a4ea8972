import { asBuffer, decodeGeometry } from "../store/geometry-codec.js";
import type { Area } from "../types.js";
import { attributesOf, groupAreas, type Measured, measure, type PreparedAreas, prepareAreas } from "./area-batch.js";
import type { Owner, ParcelAssigner } from "./assign-buildings.js";
import { type PackedGeometries, packGeometries, transferList, unpackGeometries } from "./geometry-transfer.js";
import type { RecordOutcome, Rejection } from "./import-summary.js";
import { type ImportThreadOptions, ImportThreads } from "./import-threads.js";
import type { ReadRecord } from "./run-import.js";

/** What an import thread is given of a batch of parcels or buildings: each record's source id and geometry. */
export interface AreaBatch {
  ids: Array<string | Rejection>;
  geometries: PackedGeometries;
}

/**
 * What it gives back: each area's geometry as validated, in its stored bytes (arrays copied between threads arrive as boxed
 * numbers, slower to read), its box and area, and for buildings its parcel. Attributes stay on the main thread.
 */
export interface PreparedOnThread {
  areas: Array<Measured & { sourceId: string; positions: number[]; owner?: NonNullable<Owner> | null }>;
  outcomes: Array<[position: number, outcome: RecordOutcome]>;
}

/**
 * Prepares the batches of a parcel or building import: validates, repairs and groups each batch's records
 * (`prepareAreas`) — on import threads when it has them, which also measure each area and, for buildings, find its
 * parcel; otherwise here, measuring later and only what is written.
 */
export class AreaPreparer {
  readonly #sourceIdOf: (record: ReadRecord) => string | Rejection;
  readonly #threads: ImportThreadOptions | undefined;
  readonly #owners: boolean;
  // Started with the first batch: an import refused before reading any leaves no thread behind.
  #onThreads: ImportThreads<AreaBatch, PreparedOnThread> | undefined;

  constructor(
    sourceIdOf: (record: ReadRecord) => string | Rejection,
    { threads, owners }: { threads?: ImportThreadOptions; owners: boolean },
  ) {
    this.#sourceIdOf = sourceIdOf;
    this.#threads = threads;
    this.#owners = owners;
  }

  /** Batches to prepare ahead of the one being written: one for each thread, and one for this thread to read. */
  get ahead(): number {
    return this.#threads ? this.#threads.count + 1 : 0;
  }

  async prepare(batch: ReadRecord[]): Promise<PreparedAreas> {
    if (!this.#threads) return prepareAreas(batch, this.#sourceIdOf);
    this.#onThreads ??= new ImportThreads(this.#threads, { kind: "prepare-areas", owners: this.#owners });
    const geometries = packGeometries(batch.map((record) => record.feature.geometry));
    const onThread = await this.#onThreads.run(
      { ids: batch.map(this.#sourceIdOf), geometries },
      transferList(geometries),
    );
    const prepared: PreparedAreas = { prepared: new Map(), outcomes: [] };
    for (const [position, outcome] of onThread.outcomes) prepared.outcomes[position] = outcome;
    for (const { sourceId, positions, bytes, box, areaM2, owner } of onThread.areas) {
      const area = {
        sourceId,
        attributes: attributesOf(batch, positions),
        positions,
        // A Buffer again, which every driver binds as binary.
        measured: { bytes: asBuffer(bytes), box, areaM2 },
        ...(owner === undefined ? {} : { owner }),
      };
      prepared.prepared.set(sourceId, withGeometryOf(area, bytes));
    }
    return prepared;
  }

  async close(): Promise<void> {
    await this.#onThreads?.stop();
  }
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
export async function prepareOnThread(batch: AreaBatch, assigner?: ParcelAssigner): Promise<PreparedOnThread> {
  const { prepared, outcomes } = groupAreas(batch.ids, unpackGeometries(batch.geometries));
  const areas = [...prepared.values()];
  const owners = assigner ? await assigner.owningParcels(areas.map((area) => area.geometry)) : undefined;
  return {
    areas: areas.map((area, i) => ({
      sourceId: area.sourceId,
      positions: area.positions,
      ...measure(area),
      ...(owners ? { owner: owners[i] ?? null } : {}),
    })),
    outcomes: outcomes.flatMap((outcome, position) => (outcome === undefined ? [] : [[position, outcome]])),
  };
}
