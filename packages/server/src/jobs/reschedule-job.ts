import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import type { JobAttempt } from "./claimed-job.js";
import { settleAttempt } from "./settle-attempt.js";

/**
 * Puts the job back to `pending` until `runAt` without recording an error (the handler asked to run again later,
 * e.g. a receiver's `Retry-After`), if `attempt` still owns it. Answers false otherwise.
 */
export function rescheduleJob(db: Kysely<Schema>, attempt: JobAttempt, runAt: number): Promise<boolean> {
  return settleAttempt(db, attempt, { status: "pending", run_at: runAt, lease_until: null });
}
