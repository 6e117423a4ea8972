import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import type { JobAttempt } from "./claimed-job.js";
import { settleAttempt } from "./settle-attempt.js";

/** Try again at `retryAt`, or give up for good (`final`). */
export type FailOutcome = { retryAt: number } | { final: true; now?: number };

const MAX_ERROR_LENGTH = 4000;

/**
 * Records a failed attempt, if `attempt` still owns the job (answers false otherwise): either the job waits as
 * `pending` until `retryAt`, or it ends `failed`. A failed job is kept, with its last error, never deleted.
 */
export function failJob(
  db: Kysely<Schema>,
  attempt: JobAttempt,
  error: string,
  outcome: FailOutcome,
): Promise<boolean> {
  const last_error = error.length > MAX_ERROR_LENGTH ? `${error.slice(0, MAX_ERROR_LENGTH - 1)}…` : error;
  if ("retryAt" in outcome) {
    return settleAttempt(db, attempt, { status: "pending", run_at: outcome.retryAt, lease_until: null, last_error });
  }
  return settleAttempt(db, attempt, {
    status: "failed",
    finished_at: outcome.now ?? Date.now(),
    lease_until: null,
    last_error,
  });
}
