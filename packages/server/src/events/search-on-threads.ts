import { Worker } from "node:worker_threads";
import type { Area } from "../geo/types.js";
import { threadScript } from "../thread-script.js";
import type { Impact, SearchShare } from "./find-impacts.js";

/** Where the search threads read: the database by its URL, each on a connection of its own. */
export interface SearchThreads {
  databaseUrl: string;
  /** How many threads search; one for each core the machine has is the most that helps. */
  count: number;
}

/** What the main thread gives a search thread when it starts. */
export interface SearchThreadInput {
  databaseUrl: string;
  share: SearchShare;
}

/** What the main thread tells a search thread once the event's area is read: search it. */
export interface SearchRequest {
  areas: Array<{ area: Area; intensity: number | null }>;
}

/** What a search thread tells the main thread: a chunk of impacts found, then that it is done. */
export type SearchThreadMessage = { impacts: Impact[] } | "done";

const THREAD_SCRIPT = threadScript("events/search-thread");

/** A search thread's own heap, MB: a chunk of parcels and buildings at a time, and the event's area. */
const THREAD_HEAP_MB = 192;

/**
 * `findImpacts` split over worker threads, each searching its share of the event's tiles on a connection of its
 * own, while this thread writes what they find. Reading a county's parcels, properties and buildings and testing
 * them is most of a search's work; SQLite answers one statement at a time per connection, so threads with their
 * own connections use every core, and the writing overlaps the reading. The threads start (loading their
 * modules, opening their connections) as soon as this is made, while the event's file is still being read.
 */
export class SearchOnThreads {
  readonly #workers: Worker[] = [];
  /** Each thread's search: done when it says so, failed when it fails or stops before. */
  readonly #searches: Array<Promise<void>> = [];
  #written = Promise.resolve();
  #onImpacts: (impacts: Impact[]) => Promise<void> = async () => {};

  constructor({ databaseUrl, count }: SearchThreads) {
    for (let index = 0; index < count; index++) {
      const input: SearchThreadInput = { databaseUrl, share: { index, of: count } };
      const worker = new Worker(THREAD_SCRIPT, {
        workerData: input,
        resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
      });
      const search = new Promise<void>((resolve, reject) => {
        worker.on("message", (message: SearchThreadMessage) => {
          if (message === "done") resolve();
          else this.#write(message.impacts, reject);
        });
        worker.on("error", reject);
        worker.on("exit", (code) => reject(new Error(`a search thread stopped early (exit code ${code})`)));
      });
      // A thread that fails before its search is asked for fails the search when it is.
      search.catch(() => {});
      this.#workers.push(worker);
      this.#searches.push(search);
    }
  }

  /**
   * Searches `areas`, giving `onImpacts` each chunk found, one at a time in the order they arrive; the writer
   * keeps up with the readers, so what waits to be written stays small. Any thread's failure, or the writer's,
   * fails the whole search.
   */
  async search(
    areas: Array<{ area: Area; intensity: number | null }>,
    onImpacts: (impacts: Impact[]) => Promise<void>,
  ): Promise<void> {
    this.#onImpacts = onImpacts;
    for (const worker of this.#workers) worker.postMessage({ areas } satisfies SearchRequest);
    await Promise.all(this.#searches);
    await this.#written;
  }

  /** Stops every thread, whether it finished or not. */
  async stop(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.terminate()));
  }

  #write(impacts: Impact[], fail: (error: unknown) => void): void {
    this.#written = this.#written.then(() => this.#onImpacts(impacts));
    this.#written.catch(fail);
  }
}
