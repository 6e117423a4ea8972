import { availableParallelism } from "node:os";
import type { ImportThreadOptions } from "../geo/import/import-threads.js";

/**
 * A thread for each core but the one the main thread writes on (at least one, so the writing overlaps the work),
 * at most `max` — unless the database lives in this process's memory alone, where no other thread can read it.
 */
export function workerThreadsFor(databaseUrl: string, max: number): ImportThreadOptions | undefined {
  if (databaseUrl === "sqlite::memory:") return undefined;
  return { databaseUrl, count: Math.max(1, Math.min(max, availableParallelism() - 1)) };
}
