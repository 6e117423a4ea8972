import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "../db/database.js";
import { type JobHandler, JobRunner } from "../jobs/index.js";
import { orderHandlers, RETRY } from "./background-work.js";
import type { OrderThreadMessage, ToOrderThread } from "./order-threads.js";

// The script of an order thread (see `order-threads.ts`): a job runner of its own, on a connection of its own,
// for the work that costs CPU (orders, batches opening, records computed again). It logs through the main thread
// and stops when told to, finishing the jobs it holds.

const { databaseUrl } = workerData as { databaseUrl: string };
const post = (message: OrderThreadMessage) => parentPort?.postMessage(message);
const database = openDatabase(databaseUrl);
const runner = new JobRunner(database, {
  handlers: Object.fromEntries(
    Object.entries(orderHandlers(database)).map(([kind, handler]) => [kind, thenNudge(handler)]),
  ),
  retry: RETRY,
  logger: {
    warn: (details, message) => post({ log: { level: "warn", details: loggable(details), message } }),
    error: (details, message) => post({ log: { level: "error", details: loggable(details), message } }),
  },
});

parentPort?.on("message", (message: ToOrderThread) => {
  if (message === "nudge") runner.nudge();
  else void stop();
});
runner.start();

async function stop() {
  await runner.stop();
  await database.close();
  parentPort?.close();
}

/**
 * The handler, then a word to the main thread: a settled order has usually queued its webhook, which the main
 * thread's runner would otherwise find only at its next poll.
 */
function thenNudge(handler: JobHandler): JobHandler {
  return async (payload, job) => {
    try {
      return await handler(payload, job);
    } finally {
      post("nudge");
    }
  };
}

/** Details as they cross to the main thread: an error by its name, message and stack. */
function loggable(details: object): object {
  const { err, ...rest } = details as { err?: unknown };
  if (!(err instanceof Error)) return details;
  return { ...rest, err: { name: err.name, message: err.message, stack: err.stack } };
}
