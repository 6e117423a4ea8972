/**
 * What settles a claim: the job and the attempt number its claimer got. Every settling write (complete, fail,
 * reschedule, extend the lease) matches both, so a worker whose lease expired and whose job was claimed again
 * (`attempts` moved on) changes nothing: the attempt number is a fencing token.
 */
export interface JobAttempt {
  readonly job_id: number;
  readonly attempts: number;
}

/** A job as `claimJob` hands it out: status `running`, leased until `lease_until`, on attempt `attempts`. */
export interface ClaimedJob extends JobAttempt {
  readonly kind: string;
  /** 0 for work someone waits for; 1 and up for bulk work, lower first (see `enqueueJob`). */
  readonly priority: number;
  /** The payload given to `enqueueJob`, parsed back from JSON. */
  readonly payload: unknown;
  readonly run_at: number;
  readonly lease_until: number;
  /** The error of the previous attempt, if one failed. */
  readonly last_error: string | null;
  readonly created_at: number;
}
