import type { Kysely } from "kysely";
import { writeLazily } from "../db/commit-lazily.js";
import type { Database } from "../db/database.js";
import { DatabaseBusyError } from "../db/database-busy-error.js";
import type { Schema } from "../db/schema.js";
import { type BackoffOptions, backoffMs } from "./backoff.js";
import { claimJob } from "./claim-job.js";
import type { ClaimedJob } from "./claimed-job.js";
import { completeJob } from "./complete-job.js";
import { extendLease } from "./extend-lease.js";
import { failJob } from "./fail-job.js";
import { PermanentJobError } from "./permanent-job-error.js";
import { rescheduleJob } from "./reschedule-job.js";

/** A claimed job as its handler sees it; `signal` aborts when the attempt lost its lease or the runner gave up on it. */
export interface RunningJob extends ClaimedJob {
  readonly signal: AbortSignal;
}

/**
 * Does one attempt of a job. Resolving completes the job, or with `{ retryAt }` puts it back until then without
 * recording an error (a receiver's `Retry-After`). Throwing fails the attempt: it is retried after a backoff,
 * except a `PermanentJobError`, which fails the job at once. Either way the kind's `maxAttempts` bounds the claims:
 * the attempt that reaches it and does not complete fails the job for good. Handlers run at least once per job and
 * may run again after a crash, so they must be idempotent.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: most handlers return nothing; `undefined` would reject `async () => {}`.
export type JobHandler = (payload: unknown, job: RunningJob) => Promise<void | { retryAt?: number }>;

/** The retry rule for a kind of job. */
export interface RetryPolicy extends Omit<BackoffOptions, "random"> {
  /** Claims after which a throwing attempt fails the job for good. */
  maxAttempts?: number;
}

/** The part of a pino logger the runner uses. */
export interface JobLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface JobRunnerOptions {
  /** The kinds this runner does; it claims no other kind, so processes may divide the kinds between them. */
  handlers: Readonly<Record<string, JobHandler>>;
  /** Attempts run at once. */
  concurrency?: number;
  /**
   * Attempts of bulk work (priority above 0) run at once, at most; the other slots stay for work someone waits
   * for. Jobs share one event loop, so each one in flight slows the others: a single order placed during a
   * 100,000-row batch meets at most this many of the batch's orders.
   */
  bulkConcurrency?: number;
  /** How long a claim holds; renewed every third of it while the handler runs. */
  leaseMs?: number;
  /** How often to look for due jobs when nothing woke the runner. */
  pollMs?: number;
  /** For every kind without its own in `retryByKind`. */
  retry?: RetryPolicy;
  /** Per kind, e.g. `{ "webhook.deliver": { maxAttempts: 25, maxMs: 6 * 3_600_000 } }` to keep trying for a day. */
  retryByKind?: Readonly<Record<string, RetryPolicy>>;
  logger?: JobLogger;
  /** The clock; tests move it by hand. */
  now?: () => number;
  /** The jitter source; tests fix it. */
  random?: () => number;
}

export const DEFAULT_MAX_ATTEMPTS = 25;

const consoleLogger: JobLogger = {
  warn() {},
  error(details, message) {
    console.error(message, details);
  },
};

interface Execution {
  /** The job's priority: bulk work (above 0) counts against `bulkConcurrency`. */
  readonly priority: number;
  readonly done: Promise<void>;
  /** Stops renewing the lease and aborts the handler's signal; the job runs again once the lease expires. */
  abandon(reason: Error): void;
}

/**
 * Runs the jobs of the kinds it has handlers for, `concurrency` at a time, from any number of processes at once.
 * Every attempt is leased; a process that dies mid-job loses nothing, since the job is claimed again once its
 * lease expires. Done and failed jobs stay in the table.
 *
 * @example
 * const runner = new JobRunner(database, { handlers: { "order.process": processOrder } });
 * runner.start();
 * // after enqueueJob(…) commits:
 * runner.nudge();
 * // at shutdown:
 * await runner.stop();
 */
export class JobRunner {
  readonly #database: Pick<Database, "db" | "dialect">;
  readonly #handlers: Readonly<Record<string, JobHandler>>;
  readonly #kinds: string[];
  readonly #concurrency: number;
  readonly #bulkConcurrency: number;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #retry: RetryPolicy;
  readonly #retryByKind: Readonly<Record<string, RetryPolicy>>;
  readonly #logger: JobLogger;
  readonly #now: () => number;
  readonly #random: () => number;

  readonly #executions = new Set<Execution>();
  #loop: Promise<void> | undefined;
  #stopping = false;
  #nudged = false;
  #wake: (() => void) | undefined;

  constructor(database: Pick<Database, "db" | "dialect">, options: JobRunnerOptions) {
    this.#database = database;
    this.#handlers = options.handlers;
    this.#kinds = Object.keys(options.handlers);
    this.#concurrency = Math.max(1, options.concurrency ?? 4);
    this.#bulkConcurrency = Math.min(this.#concurrency, Math.max(0, options.bulkConcurrency ?? 2));
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#pollMs = options.pollMs ?? 250;
    this.#retry = options.retry ?? {};
    this.#retryByKind = options.retryByKind ?? {};
    this.#logger = options.logger ?? consoleLogger;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
  }

  /** Attempts running now. */
  get inFlight(): number {
    return this.#executions.size;
  }

  /** Starts claiming in the background: at once, then whenever nudged, a slot frees up, or `pollMs` passes. */
  start(): void {
    if (this.#loop) return;
    this.#stopping = false;
    this.#loop = this.#poll();
  }

  /** Looks for due jobs now instead of at the next poll, e.g. right after enqueueing one. */
  nudge(): void {
    this.#nudged = true;
    this.#wake?.();
  }

  /**
   * Stops claiming and waits up to `timeoutMs` for the attempts in flight. Answers true when they all finished;
   * otherwise it stops renewing their leases and aborts their signals, and other workers take those jobs over
   * once their leases expire.
   */
  async stop({ timeoutMs = 30_000 }: { timeoutMs?: number } = {}): Promise<boolean> {
    this.#stopping = true;
    this.#wake?.();
    await this.#loop;
    this.#loop = undefined;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.all([...this.#executions].map((execution) => execution.done)).then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (!finished) {
      for (const execution of this.#executions) execution.abandon(new Error("the job runner stopped"));
    }
    return finished;
  }

  /** Claims as many due jobs as there are free slots, runs them to the end, and answers how many it ran. */
  async runOnce(): Promise<number> {
    const started: Promise<void>[] = [];
    while (this.#executions.size < this.#concurrency) {
      const job = await this.#claim();
      if (!job) break;
      started.push(this.#execute(job));
    }
    await Promise.all(started);
    return started.length;
  }

  /** Runs jobs until none is due, and answers how many attempts it ran. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const ran = await this.runOnce();
      if (ran === 0) return total;
      total += ran;
    }
  }

  async #poll(): Promise<void> {
    let failures = 0;
    while (!this.#stopping) {
      this.#nudged = false;
      let waitMs = this.#pollMs;
      try {
        while (!this.#stopping && this.#executions.size < this.#concurrency) {
          // A handler over SQLite (a synchronous driver) may run start to end in promise callbacks alone; without a
          // turn of the event loop between jobs, a long queue would starve every request of the process.
          await new Promise((resolve) => setImmediate(resolve));
          if (this.#stopping) break;
          const job = await this.#claim();
          if (!job) break;
          void this.#execute(job);
        }
        failures = 0;
      } catch (error) {
        failures += 1;
        waitMs = Math.min(this.#pollMs * 2 ** failures, 30_000);
        // SQLite's write lock held by an import in another process: expected while it runs, and no fault here.
        if (error instanceof DatabaseBusyError) this.#logger.warn({ retryInMs: waitMs }, error.message);
        else this.#logger.error({ err: error, retryInMs: waitMs }, "could not claim a job");
      }
      if (!this.#stopping) await this.#sleep(waitMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    if (this.#nudged) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        if (this.#wake === wake) this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#wake = wake;
    });
  }

  #claim(): Promise<ClaimedJob | undefined> {
    let bulk = 0;
    for (const execution of this.#executions) if (execution.priority > 0) bulk++;
    return this.#lazily((trx) =>
      claimJob(
        { db: trx, dialect: this.#database.dialect },
        {
          kinds: this.#kinds,
          leaseMs: this.#leaseMs,
          urgentOnly: bulk >= this.#bulkConcurrency,
          now: this.#now(),
        },
      ),
    );
  }

  /** Runs one attempt with its lease renewed; the promise never rejects. */
  #execute(job: ClaimedJob): Promise<void> {
    const controller = new AbortController();
    const renewal = setInterval(() => void this.#renew(job, controller), Math.max(1, Math.floor(this.#leaseMs / 3)));
    renewal.unref();
    const execution: Execution = {
      priority: job.priority,
      done: this.#attempt({ ...job, signal: controller.signal }).finally(() => {
        clearInterval(renewal);
        this.#executions.delete(execution);
        this.nudge();
      }),
      abandon(reason) {
        clearInterval(renewal);
        controller.abort(reason);
      },
    };
    this.#executions.add(execution);
    return execution.done;
  }

  async #renew(job: ClaimedJob, controller: AbortController): Promise<void> {
    try {
      if (!(await this.#lazily((trx) => extendLease(trx, job, this.#leaseMs, this.#now())))) {
        controller.abort(new Error("the job's lease passed to a newer attempt"));
      }
    } catch (error) {
      this.#logger.warn({ jobId: job.job_id, kind: job.kind, err: error }, "could not renew a job's lease");
    }
  }

  async #attempt(job: RunningJob): Promise<void> {
    const details = { jobId: job.job_id, kind: job.kind, attempt: job.attempts };
    let outcome: { ok: true; retryAt: number | undefined } | { ok: false; error: unknown };
    try {
      const handler = this.#handlers[job.kind];
      if (!handler) throw new PermanentJobError(`no handler for jobs of kind ${job.kind}`);
      const result = await handler(job.payload, job);
      outcome = { ok: true, retryAt: result?.retryAt };
    } catch (error) {
      outcome = { ok: false, error };
    }
    try {
      const retryAt = outcome.ok ? outcome.retryAt : undefined;
      const recorded = !outcome.ok
        ? await this.#recordFailure(job, outcome.error)
        : retryAt === undefined
          ? await this.#lazily((trx) => completeJob(trx, job, this.#now()))
          : job.attempts >= this.#maxAttempts(job.kind)
            ? await this.#giveUp(job, `gave up after ${job.attempts} attempts; the last asked to run again later`)
            : await this.#lazily((trx) => rescheduleJob(trx, job, retryAt));
      if (!recorded) this.#logger.warn(details, "a newer attempt owns the job; this attempt's outcome was dropped");
    } catch (error) {
      this.#logger.error({ ...details, err: error }, "could not record a job's outcome; it runs again after its lease");
    }
  }

  #policy(kind: string): RetryPolicy {
    return { ...this.#retry, ...this.#retryByKind[kind] };
  }

  #maxAttempts(kind: string): number {
    return this.#policy(kind).maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  }

  #recordFailure(job: RunningJob, error: unknown): Promise<boolean> {
    if (error instanceof PermanentJobError || job.attempts >= this.#maxAttempts(job.kind)) {
      return this.#giveUp(job, describe(error), error);
    }
    const { baseMs, maxMs } = this.#policy(job.kind);
    const retryAt = this.#now() + backoffMs(job.attempts, { baseMs, maxMs, random: this.#random });
    this.#logger.warn(
      { jobId: job.job_id, kind: job.kind, attempt: job.attempts, err: error, retryAt },
      "job attempt failed; retrying later",
    );
    return this.#lazily((trx) => failJob(trx, job, describe(error), { retryAt }));
  }

  #giveUp(job: RunningJob, message: string, error?: unknown): Promise<boolean> {
    this.#logger.error(
      { jobId: job.job_id, kind: job.kind, attempt: job.attempts, err: error ?? message },
      "job failed for good",
    );
    return this.#lazily((trx) => failJob(trx, job, message, { final: true, now: this.#now() }));
  }

  /** The queue's own writes need not wait for the disk: undone by a power failure, a job only runs again. */
  #lazily<T>(work: (db: Kysely<Schema>) => Promise<T>): Promise<T> {
    return writeLazily(this.#database, work);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
