import { availableParallelism } from "node:os";

/** Threads to work beside the main thread: where they read, and how many. */
export interface WorkerThreads {
  databaseUrl: string;
  count: number;
}

/**
 * A thread for each core but the one the main thread writes on (at least one, so the writing overlaps the work),
 * at most `max` — unless the database lives in this process's memory alone, where no other thread can read it.
 */
export function workerThreadsFor(databaseUrl: string, max: number): WorkerThreads | undefined {
  if (databaseUrl === "sqlite::memory:") return undefined;
  return { databaseUrl, count: Math.max(1, Math.min(max, availableParallelism() - 1)) };
}
