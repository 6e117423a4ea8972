import { Worker } from "node:worker_threads";
import type { JobLogger } from "../jobs/index.js";
import { threadScript } from "../thread-script.js";

/** What the main thread tells an order thread. */
export type ToOrderThread = "nudge" | "stop";

/** What an order thread tells the main thread. */
export type OrderThreadMessage =
  /** A job settled: the main thread's runner should look for webhooks to deliver. */
  "nudge" | { log: { level: "warn" | "error"; details: object; message: string } };

const THREAD_SCRIPT = threadScript("workers/order-thread");

/** An order thread's own heap, MB: what it keeps (parsed geometry, the coastline index) with room for garbage. */
const THREAD_HEAP_MB = 256;

/**
 * Order threads: worker threads that each run a job runner of their own, with their own database connection,
 * for the jobs that cost CPU — processing orders, opening batches, computing records again — while the main
 * thread answers requests and delivers webhooks. On one event loop, an order's 3 ms of computation and every
 * request of the process took turns on one core; with threads they use every core a machine has. A thread that
 * dies is replaced (its jobs run again once their leases expire).
 */
export class OrderThreads {
  readonly #databaseUrl: string;
  readonly #logger: JobLogger;
  readonly #threads = new Set<Worker>();
  #stopping = false;

  readonly #onNudge: () => void;

  /** `onNudge` runs when a thread has settled a job (see {@link OrderThreadMessage}). */
  constructor(databaseUrl: string, count: number, logger: JobLogger, onNudge: () => void) {
    this.#databaseUrl = databaseUrl;
    this.#logger = logger;
    this.#onNudge = onNudge;
    for (let i = 0; i < count; i++) this.#start();
  }

  /** Tells every thread to look for due jobs now (an order or a batch was just placed). */
  nudge(): void {
    for (const thread of this.#threads) thread.postMessage("nudge" satisfies ToOrderThread);
  }

  /** Stops every thread once it has finished the jobs it holds. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.all(
      [...this.#threads].map(
        (thread) =>
          new Promise<void>((resolve) => {
            thread.once("exit", () => resolve());
            thread.postMessage("stop" satisfies ToOrderThread);
          }),
      ),
    );
  }

  #start(): void {
    const thread = new Worker(THREAD_SCRIPT, {
      workerData: { databaseUrl: this.#databaseUrl },
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
    this.#threads.add(thread);
    thread.on("message", (message: OrderThreadMessage) => {
      if (message === "nudge") this.#onNudge();
      else if (typeof message === "object") this.#logger[message.log.level](message.log.details, message.log.message);
    });
    thread.on("error", (error) => this.#logger.error({ err: error }, "an order thread failed"));
    thread.on("exit", (code) => {
      this.#threads.delete(thread);
      if (this.#stopping) return;
      this.#logger.error({ code }, "an order thread exited; starting another");
      this.#start();
    });
  }
}
