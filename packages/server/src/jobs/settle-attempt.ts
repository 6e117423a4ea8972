import type { Kysely, Updateable } from "kysely";
import type { JobTable, Schema } from "../db/schema.js";
import type { JobAttempt } from "./claimed-job.js";

/**
 * Writes `values` to the job only while `attempt` still owns it (same attempt number, still running), and says
 * whether it did. Internal: the public settling calls are built on it.
 */
export async function settleAttempt(
  db: Kysely<Schema>,
  attempt: JobAttempt,
  values: Updateable<JobTable>,
): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set(values)
    .where("job_id", "=", attempt.job_id)
    .where("attempts", "=", attempt.attempts)
    .where("status", "=", "running")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
