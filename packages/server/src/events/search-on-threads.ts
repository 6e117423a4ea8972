import { Worker } from "node:worker_threads";
import type { Area } from "../geo/types.js";
import type { Impact, SearchShare } from "./find-impacts.js";

/** Where the search threads read: the database by its URL, each on a connection of its own. */
export interface SearchThreads {
  databaseUrl: string;
  /** How many threads search; one for each core the machine has is the most that helps. */
  count: number;
}

/** What the main thread gives a search thread. */
export interface SearchThreadInput {
  databaseUrl: string;
  areas: Array<{ area: Area; intensity: number | null }>;
  share: SearchShare;
}

/** What a search thread tells the main thread: a chunk of impacts found, then that it is done. */
export type SearchThreadMessage = { impacts: Impact[] } | "done";

/**
 * The compiled thread script. Tests run the sources, which a worker thread cannot load, so it points into the
 * build (`tsc --build` first, as for the order threads).
 */
const THREAD_SCRIPT = new URL("../../dist/events/search-thread.js", import.meta.url);

/** A search thread's own heap, MB: a chunk of parcels and buildings at a time, and the event's area. */
const THREAD_HEAP_MB = 192;

/**
 * `findImpacts` split over worker threads, each searching its share of the event's tiles on a connection of its
 * own, while this thread writes what they find (`onImpacts`, one chunk at a time, in the order chunks arrive).
 * Reading a county's parcels, properties and buildings and testing them is most of a search's work; SQLite
 * answers one statement at a time per connection, so threads with their own connections use every core, and the
 * writing overlaps the reading. The writer keeps up with the readers, so what waits to be written stays small.
 * Any thread's failure, or the writer's, fails the whole search, and the other threads are stopped.
 */
export async function searchOnThreads(
  threads: SearchThreads,
  areas: Array<{ area: Area; intensity: number | null }>,
  onImpacts: (impacts: Impact[]) => Promise<void>,
): Promise<void> {
  const workers: Worker[] = [];
  let written = Promise.resolve();
  try {
    const searches = Array.from({ length: threads.count }, (_, index) => {
      const input: SearchThreadInput = {
        databaseUrl: threads.databaseUrl,
        areas,
        share: { index, of: threads.count },
      };
      const worker = new Worker(THREAD_SCRIPT, {
        workerData: input,
        resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
      });
      workers.push(worker);
      return new Promise<void>((resolve, reject) => {
        worker.on("message", (message: SearchThreadMessage) => {
          if (message === "done") resolve();
          else {
            written = written.then(() => onImpacts(message.impacts));
            written.catch(reject);
          }
        });
        worker.on("error", reject);
        worker.on("exit", (code) => reject(new Error(`a search thread stopped early (exit code ${code})`)));
      });
    });
    await Promise.all(searches);
    await written;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
