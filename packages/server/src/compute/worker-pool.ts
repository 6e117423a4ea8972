import { Worker } from "node:worker_threads";
import { PoolBusyError } from "./pool-busy-error.js";
import { TaskTimeoutError } from "./task-timeout-error.js";

export interface WorkerPoolOptions {
  /** Worker threads at most, started when first needed. */
  size: number;
  /** Tasks that may wait for a worker; one more is refused at once with {@link PoolBusyError}. */
  queueLimit: number;
  /** Milliseconds a task may run in its worker before the worker is terminated and the task fails. */
  budgetMs: number;
}

/**
 * What a worker script posts (see `geometry-worker.ts`): `ready` once, when it has loaded and can take tasks (so a
 * task's budget never pays for a worker's start), then one answer per task.
 */
export type WorkerMessage = { ready: true } | { ok: true; result: unknown } | { ok: false; error: string };

interface Task {
  name: string;
  input: unknown;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task?: Task;
  timer?: NodeJS.Timeout;
}

/**
 * Runs named tasks of one worker script on a few `worker_threads`, so that heavy work never holds up the event
 * loop: one task at a time per worker, a bounded queue, and a time budget per task. A worker over its budget is
 * terminated (the only way to stop a synchronous computation) and replaced when next needed; so is one that
 * crashes. A worker that dies before it is ready fails the waiting tasks rather than being restarted in a loop.
 * Idle workers do not keep the process alive; {@link close} ends them all.
 */
export class WorkerPool {
  readonly #script: URL;
  readonly #options: WorkerPoolOptions;
  readonly #slots = new Set<Slot>();
  readonly #queue: Task[] = [];
  #closed = false;

  constructor(script: URL, options: WorkerPoolOptions) {
    this.#script = script;
    this.#options = options;
  }

  /** Runs the task `name` on `input` (copied to the worker by structured clone) and answers its result. */
  run<T>(name: string, input: unknown): Promise<T> {
    if (this.#closed) return Promise.reject(new Error("the worker pool is closed"));
    if (this.#queue.length >= this.#options.queueLimit) return Promise.reject(new PoolBusyError());
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ name, input, resolve: resolve as (result: unknown) => void, reject });
      this.#dispatch();
    });
  }

  /** Ends every worker; tasks running or waiting fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const task of this.#queue.splice(0)) task.reject(new Error("the worker pool is closed"));
    const slots = [...this.#slots];
    this.#slots.clear();
    for (const slot of slots) this.#settle(slot, new Error("the worker pool is closed"));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const slot = this.#idleSlot();
      if (!slot) return;
      const task = this.#queue.shift();
      if (!task) return;
      slot.task = task;
      slot.timer = setTimeout(() => this.#timeOut(slot), this.#options.budgetMs);
      slot.worker.ref();
      slot.worker.postMessage({ name: task.name, input: task.input });
    }
  }

  /** A ready worker with nothing to do; if there is none, one more is started (up to the size), to take work when ready. */
  #idleSlot(): Slot | undefined {
    let starting = false;
    for (const slot of this.#slots) {
      if (slot.ready && !slot.task) return slot;
      starting ||= !slot.ready;
    }
    if (!starting && this.#slots.size < this.#options.size) this.#start();
    return undefined;
  }

  #start(): void {
    const slot: Slot = { worker: new Worker(this.#script), ready: false };
    slot.worker.unref();
    slot.worker.on("message", (message: WorkerMessage) => {
      if ("ready" in message) slot.ready = true;
      else
        this.#settle(slot, message.ok ? undefined : new Error(message.error), message.ok ? message.result : undefined);
      this.#dispatch();
    });
    slot.worker.on("error", (error) => this.#retire(slot, error));
    slot.worker.on("exit", (code) => this.#retire(slot, new Error(`a worker exited with code ${code}`)));
    this.#slots.add(slot);
  }

  #timeOut(slot: Slot): void {
    this.#retire(slot, new TaskTimeoutError(this.#options.budgetMs));
    void slot.worker.terminate();
  }

  /** The slot's worker is gone or going: its task fails, and waiting tasks go to the others or a new one. */
  #retire(slot: Slot, error: Error): void {
    if (!this.#slots.delete(slot)) return;
    this.#settle(slot, error);
    if (!slot.ready) for (const task of this.#queue.splice(0)) task.reject(error);
    if (!this.#closed) this.#dispatch();
  }

  #settle(slot: Slot, error: Error | undefined, result?: unknown): void {
    const { task, timer } = slot;
    clearTimeout(timer);
    slot.task = undefined;
    slot.timer = undefined;
    slot.worker.unref();
    if (!task) return;
    if (error) task.reject(error);
    else task.resolve(result);
  }
}
