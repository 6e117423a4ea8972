import { availableParallelism } from "node:os";
import { threadScript } from "../thread-script.js";
import type { GEOMETRY_TASKS, GeometryTaskName } from "./geometry-tasks.js";
import { WorkerPool } from "./worker-pool.js";

/** Milliseconds one geometry task may take before it is stopped and refused as too complex. */
export const GEOMETRY_BUDGET_MS = 2_000;

const WORKER_SCRIPT = threadScript("compute/geometry-worker");

let shared: { pool: WorkerPool; holders: number } | undefined;

/**
 * Runs a geometry task on this process's geometry workers: one fewer than the CPUs (at least one, at most four),
 * so the event loop keeps a core, with 16 tasks waiting per worker at most and {@link GEOMETRY_BUDGET_MS} each.
 * Fails with `PoolBusyError` or `TaskTimeoutError` (see `worker-pool.ts`).
 */
export function runGeometryTask<N extends GeometryTaskName>(
  name: N,
  input: Parameters<(typeof GEOMETRY_TASKS)[N]>[0],
): Promise<ReturnType<(typeof GEOMETRY_TASKS)[N]>> {
  return sharedPool().run<ReturnType<(typeof GEOMETRY_TASKS)[N]>>(name, input);
}

/**
 * Holds the shared pool open until the answered release is called (an application does, when it closes); the
 * last release ends its workers. Several applications in one process (tests) share one pool.
 */
export function holdGeometryPool(): () => Promise<void> {
  const held = sharedPool();
  shared = { pool: held, holders: (shared?.holders ?? 0) + 1 };
  let released = false;
  return async () => {
    if (released || shared?.pool !== held) return;
    released = true;
    shared.holders -= 1;
    if (shared.holders > 0) return;
    shared = undefined;
    await held.close();
  };
}

function sharedPool(): WorkerPool {
  if (shared) return shared.pool;
  const size = Math.max(1, Math.min(4, availableParallelism() - 1));
  const pool = new WorkerPool(WORKER_SCRIPT, { size, queueLimit: 16 * size, budgetMs: GEOMETRY_BUDGET_MS });
  shared = { pool, holders: 0 };
  return pool;
}
