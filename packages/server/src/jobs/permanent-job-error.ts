/**
 * Thrown by a job handler when trying again cannot help (the order's property was deleted, the callback URL is no
 * longer registered): the job ends `failed` at once, whatever attempts remain.
 */
export class PermanentJobError extends Error {
  readonly code = "job_failed_permanently";

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
