export { type BackoffOptions, backoffMs } from "./backoff.js";
export { type ClaimOptions, claimJob } from "./claim-job.js";
export type { ClaimedJob, JobAttempt } from "./claimed-job.js";
export { completeJob } from "./complete-job.js";
export { type EnqueueOptions, enqueueJob } from "./enqueue-job.js";
export { extendLease } from "./extend-lease.js";
export { type FailOutcome, failJob } from "./fail-job.js";
export {
  DEFAULT_MAX_ATTEMPTS,
  type JobHandler,
  type JobLogger,
  JobRunner,
  type JobRunnerOptions,
  type RetryPolicy,
  type RunningJob,
} from "./job-runner.js";
export { PermanentJobError } from "./permanent-job-error.js";
export { rescheduleJob } from "./reschedule-job.js";
