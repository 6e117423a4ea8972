import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import type { JobAttempt } from "./claimed-job.js";
import { settleAttempt } from "./settle-attempt.js";

/**
 * Moves the lease to `now + leaseMs` while a long attempt runs. Answers false when the attempt no longer owns the
 * job (its lease ran out and the job was claimed again, or it was settled): the worker should stop.
 */
export function extendLease(
  db: Kysely<Schema>,
  attempt: JobAttempt,
  leaseMs: number,
  now = Date.now(),
): Promise<boolean> {
  return settleAttempt(db, attempt, { lease_until: now + leaseMs });
}
