import { parentPort } from "node:worker_threads";
import { GEOMETRY_TASKS, type GeometryTaskName } from "./geometry-tasks.js";
import type { WorkerMessage } from "./worker-pool.js";

// The script of a geometry worker thread (see `geometry-pool.ts`): says it is ready once its modules are loaded,
// then runs one task per message and answers it.

parentPort?.on("message", ({ name, input }: { name: GeometryTaskName; input: never }) => {
  let answer: WorkerMessage;
  try {
    const task = GEOMETRY_TASKS[name];
    answer = task ? { ok: true, result: task(input) } : { ok: false, error: `no geometry task ${name}` };
  } catch (error) {
    answer = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});

parentPort?.postMessage({ ready: true } satisfies WorkerMessage);
