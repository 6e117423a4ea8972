import type { FastifyBaseLogger } from "fastify";
import { OPEN_BATCH_JOB, openBatchJob } from "../batches/open-batch-job.js";
import type { Database } from "../db/database.js";
import { type JobHandler, JobRunner, type RetryPolicy } from "../jobs/index.js";
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

/** The retry rule of every kind but webhook deliveries. */
export const RETRY: RetryPolicy = { maxAttempts: 10 };

/** The jobs that cost CPU: processing orders, opening batches, computing records again after a dataset removal. */
export function orderHandlers(database: Database): Record<string, JobHandler> {
  return {
    [PROCESS_ORDER_JOB]: processOrderJob(database),
    [OPEN_BATCH_JOB]: openBatchJob(database),
    [RECOMPUTE_PROPERTY_JOB]: recomputePropertyJob(database),
  };
}

/**
 * The job runner of a process that does background work: webhook delivery, and unless order threads do them
 * (`withOrders: false`, see `order-threads.ts`), the jobs of {@link orderHandlers}.
 */
export function createJobRunner(
  services: Services,
  logger?: FastifyBaseLogger,
  { withOrders = true }: { withOrders?: boolean } = {},
): JobRunner {
  return new JobRunner(services.database, {
    handlers: {
      ...(withOrders ? orderHandlers(services.database) : {}),
      [DELIVER_WEBHOOK_JOB]: deliverEventJob(services.database, services.config),
    },
    retry: RETRY,
    // Webhook deliveries are never bulk work: a runner of them alone never looks among a batch's queued orders.
    ...(withOrders ? {} : { bulkConcurrency: 0 }),
    retryByKind: { [DELIVER_WEBHOOK_JOB]: { maxAttempts: WEBHOOK_MAX_ATTEMPTS, maxMs: 3_600_000 } },
    ...(logger ? { logger } : {}),
  });
}
