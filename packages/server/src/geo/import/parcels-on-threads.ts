import { Worker } from "node:worker_threads";
import { encodeWkb } from "../store/wkb.js";
import type { Area } from "../types.js";
import type { Owner } from "./assign-buildings.js";

/** Where the assigning threads read: the database by its URL, each on a connection of its own. */
export interface ParcelThreads {
  databaseUrl: string;
  /** How many threads assign; one for each core but the main thread's is the most that helps. */
  count: number;
}

/**
 * What the main thread tells an assigning thread: footprints to find parcels for, or to stop. Footprints travel as
 * WKB: arrays of coordinates copied between threads come out as arrays of boxed numbers, which the clipping reads
 * two and a half times as slowly as the arrays WKB decodes into.
 */
export type ParcelThreadInput = { id: number; footprints: Uint8Array[] } | "stop";

/** What an assigning thread answers: each footprint's parcel (null: none), or why it could not tell. */
export type ParcelThreadMessage = { id: number; owners: Array<Owner | null> } | { id: number; error: string };

/** The compiled thread script: tests run the sources, which a worker thread cannot load (`tsc --build` first). */
const THREAD_SCRIPT = new URL("../../../dist/geo/import/parcel-thread.js", import.meta.url);

/**
 * An assigning thread's heap, MB: the parcels around a few batches of footprints, parsed. Its young generation is
 * twice a worker's default, which spent a quarter of the thread's time collecting the overlaps' garbage.
 */
const THREAD_HEAP = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

/** A thread that does not stop when asked is stopped after this long, ms. */
const STOP_WAIT_MS = 5000;

interface Pending {
  resolve: (owners: Array<Owner | null>) => void;
  reject: (error: Error) => void;
}

/**
 * The parcels of a building import's footprints found on worker threads, while the main thread reads, validates
 * and writes: finding the parcel holding the largest share of each footprint is the largest part of a building
 * import, and it writes nothing, so each thread reads the parcels on a connection of its own (a building import
 * writes no parcel, so they are the parcels its transaction sees). A thread that fails fails every batch it was
 * given and every batch asked for after.
 */
export class ParcelsOnThreads {
  readonly #threads: Array<{ worker: Worker; pending: Map<number, Pending>; exited: Promise<void> }> = [];
  #nextId = 0;
  #failure: Error | undefined;

  constructor({ databaseUrl, count }: ParcelThreads) {
    for (let index = 0; index < count; index++) {
      const worker = new Worker(THREAD_SCRIPT, { workerData: { databaseUrl }, resourceLimits: THREAD_HEAP });
      const pending = new Map<number, Pending>();
      const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      worker.on("message", (message: ParcelThreadMessage) => {
        const waiting = pending.get(message.id);
        pending.delete(message.id);
        if ("error" in message) waiting?.reject(new Error(`an assigning thread failed: ${message.error}`));
        else waiting?.resolve(message.owners);
      });
      worker.on("error", (error) => this.#fail(error));
      worker.on("exit", (code) => this.#fail(new Error(`an assigning thread stopped (exit code ${code})`)));
      this.#threads.push({ worker, pending, exited });
    }
  }

  /** Each footprint's parcel and share, found on the thread with the fewest batches in hand. */
  owningParcels(footprints: Area[]): Promise<Array<Owner | null>> {
    if (this.#failure) return Promise.reject(this.#failure);
    const thread = this.#threads.reduce((least, next) => (next.pending.size < least.pending.size ? next : least));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, footprints: footprints.map(encodeWkb) } satisfies ParcelThreadInput);
    });
  }

  /** Lets each thread close its connection and end; one that does not is stopped. */
  async stop(): Promise<void> {
    this.#failure ??= new Error("the assigning threads were stopped");
    await Promise.all(
      this.#threads.map(async ({ worker, exited }) => {
        worker.postMessage("stop" satisfies ParcelThreadInput);
        const timer = setTimeout(() => void worker.terminate(), STOP_WAIT_MS);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const { pending } of this.#threads) {
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    }
  }
}
