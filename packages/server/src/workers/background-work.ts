import type { FastifyBaseLogger } from "fastify";
import { OPEN_BATCH_JOB, openBatchJob } from "../batches/open-batch-job.js";
import { JobRunner } from "../jobs/index.js";
import { PROCESS_ORDER_JOB } from "../orders/create-order.js";
import { processOrderJob } from "../orders/process-order.js";
import { RECOMPUTE_PROPERTY_JOB, recomputePropertyJob } from "../orders/recompute-property.js";
import type { Services } from "../services.js";
import { deliverEventJob } from "../webhooks/deliver-event-job.js";
import { DELIVER_WEBHOOK_JOB } from "../webhooks/webhook-events.js";

/**
 * Attempts before a webhook delivery fails for good. Backoff is full jitter capped at an hour, half an hour on
 * average, so 100 attempts keep trying for about two days: well past the 24 hours DESIGN.md §8 promises, even
 * on unlucky draws.
 */
export const WEBHOOK_MAX_ATTEMPTS = 100;

/**
 * The job runner of a process that does background work: order processing, opening batches, records computed again
 * after a dataset is removed, and webhook delivery.
 */
export function createJobRunner(services: Services, logger?: FastifyBaseLogger): JobRunner {
  return new JobRunner(services.database, {
    handlers: {
      [PROCESS_ORDER_JOB]: processOrderJob(services.database),
      [OPEN_BATCH_JOB]: openBatchJob(services.database),
      [RECOMPUTE_PROPERTY_JOB]: recomputePropertyJob(services.database),
      [DELIVER_WEBHOOK_JOB]: deliverEventJob(services.database, services.config),
    },
    retry: { maxAttempts: 10 },
    retryByKind: { [DELIVER_WEBHOOK_JOB]: { maxAttempts: WEBHOOK_MAX_ATTEMPTS, maxMs: 3_600_000 } },
    ...(logger ? { logger } : {}),
  });
}
