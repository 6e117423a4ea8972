import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import type { JobAttempt } from "./claimed-job.js";
import { settleAttempt } from "./settle-attempt.js";

/**
 * Marks the job `done`, if `attempt` still owns it. Answers false when it does not: the lease expired and a newer
 * attempt took the job over, whose result stands. The row is kept.
 */
export function completeJob(db: Kysely<Schema>, attempt: JobAttempt, now = Date.now()): Promise<boolean> {
  return settleAttempt(db, attempt, { status: "done", finished_at: now, lease_until: null });
}
