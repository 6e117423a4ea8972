import { JobRunner } from "../jobs/index.js";
import { RECOMPUTE_PROPERTY_JOB, recomputePropertyJob } from "../orders/recompute-property.js";
import type { Services } from "../services.js";

/**
 * Computes again the property records a dataset change queued, so that a command answers once they are current.
 * The jobs are durable: if the command is stopped, a running service's workers finish them.
 */
export function recomputeQueued(services: Services): Promise<number> {
  const runner = new JobRunner(services.database, {
    handlers: { [RECOMPUTE_PROPERTY_JOB]: recomputePropertyJob(services.database) },
  });
  return runner.drain();
}
