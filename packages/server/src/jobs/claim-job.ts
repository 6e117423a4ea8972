import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { Database } from "../db/database.js";
import type { JobTable, Schema } from "../db/schema.js";
import type { ClaimedJob } from "./claimed-job.js";
import { failJob } from "./fail-job.js";

export interface ClaimOptions {
  /** Only jobs of these kinds; every kind when absent. */
  kinds?: readonly string[];
  /** How long the claim holds before another worker may take the job over. */
  leaseMs: number;
  /** Only work someone waits for (priority 0) and expired leases: no bulk work. */
  urgentOnly?: boolean;
  now?: number;
}

/**
 * Claims a due job: a `running` job whose lease has expired (its worker died or hung), else the `pending` job
 * whose `run_at` has come with the lowest priority, oldest first. The job becomes `running`, leased until
 * `now + leaseMs`, and its `attempts` goes up by one; the claim answers that attempt number, which every settling
 * call must present.
 *
 * PostgreSQL picks the row with `for update skip locked`, so processes claiming at once each get a different
 * job without waiting on one another. SQLite has one writer at a time, so the single `update … returning`
 * statement is atomic as it stands.
 */
export async function claimJob(
  database: Pick<Database, "db" | "dialect">,
  { kinds, leaseMs, urgentOnly = false, now = Date.now() }: ClaimOptions,
): Promise<ClaimedJob | undefined> {
  if (kinds?.length === 0) return undefined;
  for (;;) {
    const row = await claimRow(database, kinds, leaseMs, urgentOnly, now);
    if (!row) return undefined;
    let payload: unknown;
    try {
      payload = JSON.parse(row.payload);
    } catch {
      // Only enqueueJob writes payloads, always as JSON; a row written otherwise must not block the queue.
      await failJob(database.db, row, "the payload is not JSON", { final: true, now });
      continue;
    }
    return {
      job_id: row.job_id,
      kind: row.kind,
      priority: row.priority,
      payload,
      attempts: row.attempts,
      run_at: row.run_at,
      lease_until: now + leaseMs,
      last_error: row.last_error,
      created_at: row.created_at,
    };
  }
}

/**
 * The job to claim, in three steps that each follow the `jobs_claim` index: a job whose worker's lease expired,
 * then the most urgent due job of priority 0 (oldest first), then bulk work by priority. Keeping the priority-0
 * step apart keeps a claim quick whatever the backlog: the index reads only due rows of one priority in order.
 * The steps are the arguments of one `coalesce`, which runs each only when those before it found nothing: one
 * statement, so one round trip to a database across a network.
 */
function claimRow(
  { db, dialect }: Pick<Database, "db" | "dialect">,
  kinds: readonly string[] | undefined,
  leaseMs: number,
  urgentOnly: boolean,
  now: number,
) {
  const dueJob = (
    eb: ExpressionBuilder<Schema, "jobs">,
    due: (w: ExpressionBuilder<Schema & { due: JobTable }, "due">) => Expression<SqlBool>,
  ) =>
    eb
      .selectFrom("jobs as due")
      .select("due.job_id")
      .where(due)
      .$if(kinds !== undefined, (q) => q.where("due.kind", "in", kinds ?? []))
      .orderBy("due.priority")
      .orderBy("due.run_at")
      .orderBy("due.job_id")
      .limit(1)
      .$if(dialect === "postgres", (q) => q.forUpdate().skipLocked());
  return db
    .updateTable("jobs")
    .set((eb) => ({ status: "running", lease_until: now + leaseMs, attempts: eb("attempts", "+", 1) }))
    .where("job_id", "=", (eb) => {
      const expired = dueJob(eb, (w) => w.and([w("due.status", "=", "running"), w("due.lease_until", "<=", now)]));
      const urgent = dueJob(eb, (w) =>
        w.and([w("due.status", "=", "pending"), w("due.priority", "=", 0), w("due.run_at", "<=", now)]),
      );
      const bulk = dueJob(eb, (w) =>
        w.and([w("due.status", "=", "pending"), w("due.priority", ">", 0), w("due.run_at", "<=", now)]),
      );
      return urgentOnly ? eb.fn.coalesce(expired, urgent) : eb.fn.coalesce(expired, urgent, bulk);
    })
    .returningAll()
    .executeTakeFirst();
}
