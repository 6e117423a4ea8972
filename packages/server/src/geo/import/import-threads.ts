import { Worker } from "node:worker_threads";
import type { DatasetNamespace } from "../../db/schema.js";
import { threadScript } from "../../thread-script.js";
import type { AddressImportOptions } from "./address-locator.js";
import type { AreaSource } from "./area-preparer.js";

/** Where an import's threads read, when their task reads: the database by its URL, each on a connection of its own. */
export interface ImportThreadOptions {
  databaseUrl: string;
  /** How many threads work; one for each core but the main thread's is the most that helps. */
  count: number;
}

/** What an import's threads do with each batch they are given. */
export type ThreadTask =
  /** Validate, group and measure parcels or buildings (`area-preparer.ts`), and find the buildings' parcels. */
  | { kind: "prepare-areas"; owners: boolean; source: AreaSource }
  /** Normalize and locate each record's address (`address-locator.ts`) among the namespace's parcels. */
  | { kind: "locate-addresses"; options: AddressImportOptions; namespace: DatasetNamespace };

/** What an import thread is started with. */
export interface ImportThreadData {
  databaseUrl: string;
  task: ThreadTask;
}

/** What the main thread tells an import thread: a batch to work on, or to stop. */
export type ImportThreadInput = { id: number; batch: unknown } | "stop";

/** What an import thread answers: a batch's result, or why there is none. */
export type ImportThreadMessage = { id: number; result: unknown } | { id: number; error: string };

const THREAD_SCRIPT = threadScript("geo/import/import-thread");

/**
 * An import thread's heap, MB: the parcels around a few batches, parsed. Its young generation takes a batch's
 * short-lived objects: at 16 MB, garbage collection took a fifth of a building thread's time. At 48 MB, 110,000 buildings
 * imported in 16.9–18.0 s against 18.6–20.5 s and 105,000 parcels in 10.9–11.2 s against 11.7–12.0 s, for some
 * 20 MB more of the process's peak (263 MB); addresses, whose threads wait for the writer, took the same time.
 */
const THREAD_HEAP = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 48 };

/** A thread that does not stop when asked is stopped after this long, ms. */
const STOP_WAIT_MS = 5000;

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * An import's work that writes nothing, on worker threads — a batch's areas validated and measured, its buildings'
 * parcels found, its addresses located — while the main thread reads the file and writes the batches before it.
 * A thread that reads parcels does so on a connection of its own, which sees the parcels committed: the imports
 * that read them there (buildings, addresses) write none. Batches go to the thread with the fewest in hand. A thread that fails fails every batch it was given and every batch asked for after.
 */
export class ImportThreads<Batch, Result> {
  readonly #threads: Array<{ worker: Worker; pending: Map<number, Pending>; exited: Promise<void> }> = [];
  #nextId = 0;
  #failure: Error | undefined;

  constructor({ databaseUrl, count }: ImportThreadOptions, task: ThreadTask) {
    for (let index = 0; index < count; index++) {
      const workerData: ImportThreadData = { databaseUrl, task };
      const worker = new Worker(THREAD_SCRIPT, { workerData, resourceLimits: THREAD_HEAP });
      const pending = new Map<number, Pending>();
      const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      worker.on("message", (message: ImportThreadMessage) => {
        const waiting = pending.get(message.id);
        pending.delete(message.id);
        if ("error" in message) waiting?.reject(new Error(`an import thread failed: ${message.error}`));
        else waiting?.resolve(message.result);
      });
      worker.on("error", (error) => this.#fail(error));
      worker.on("exit", (code) => this.#fail(new Error(`an import thread stopped (exit code ${code})`)));
      this.#threads.push({ worker, pending, exited });
    }
  }

  /** `batch` worked on by the thread with the fewest batches in hand; the buffers of `transfer` are handed to it. */
  run(batch: Batch, transfer: readonly ArrayBuffer[] = []): Promise<Result> {
    if (this.#failure) return Promise.reject(this.#failure);
    const thread = this.#threads.reduce((least, next) => (next.pending.size < least.pending.size ? next : least));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve: (result) => resolve(result as Result), reject });
      thread.worker.postMessage({ id, batch } satisfies ImportThreadInput, transfer);
    });
  }

  /** Lets each thread close its connection and end; one that does not is stopped. */
  async stop(): Promise<void> {
    this.#failure ??= new Error("the import threads were stopped");
    await Promise.all(
      this.#threads.map(async ({ worker, exited }) => {
        worker.postMessage("stop" satisfies ImportThreadInput);
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
