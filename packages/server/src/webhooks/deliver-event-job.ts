import type { Config } from "../config/config.js";
import { commitLazily } from "../db/commit-lazily.js";
import type { Database } from "../db/database.js";
import { type JobHandler, PermanentJobError } from "../jobs/index.js";
import { deliverWebhook } from "./deliver-webhook.js";
import { webhookHeaders } from "./webhook-headers.js";

/**
 * The `deliver_webhook` job: one signed attempt, logged whatever happens. Delivered → the event is done; a
 * retryable failure → the job backs off (or waits what `Retry-After` asked); 410 or a refused address → the event
 * fails for good. Nothing is deleted: the event and every attempt stay readable through the API.
 */
export function deliverEventJob(database: Database, config: Config): JobHandler {
  return async (payload) => {
    const { event_id: eventId } = payload as { event_id: string };
    const event = await database.db
      .selectFrom("webhook_events")
      .innerJoin("organizations", "organizations.org_id", "webhook_events.org_id")
      .select([
        "webhook_events.event_id",
        "webhook_events.url",
        "webhook_events.body",
        "webhook_events.status",
        "organizations.webhook_secret",
      ])
      .where("webhook_events.event_id", "=", eventId)
      .executeTakeFirst();
    if (event?.status !== "pending") return;

    const attemptedAt = Date.now();
    const headers = webhookHeaders(event.webhook_secret, event.event_id, Math.floor(attemptedAt / 1000), event.body);
    const result = await deliverWebhook({
      url: event.url,
      headers,
      body: event.body,
      allowHosts: config.webhookAllowHosts,
    });

    // Lazily: undone by a power failure, the webhook is sent again, which at-least-once delivery allows.
    await commitLazily(database, async (trx) => {
      await trx
        .insertInto("webhook_attempts")
        .values({
          event_id: eventId,
          attempted_at: attemptedAt,
          duration_ms: Math.round(result.durationMs),
          status_code: result.statusCode ?? null,
          error: result.error ?? null,
          response_excerpt: result.responseExcerpt ?? null,
        })
        .execute();
      if (result.outcome !== "retry") {
        await trx
          .updateTable("webhook_events")
          .set({
            status: result.outcome === "delivered" ? "delivered" : "failed",
            ...(result.outcome === "delivered" ? { delivered_at: Date.now() } : {}),
          })
          .where("event_id", "=", eventId)
          .execute();
      }
    });
    if (result.outcome === "stop") throw new PermanentJobError(result.error ?? `stopped with ${result.statusCode}`);
    if (result.outcome === "retry") {
      if (result.retryAfterMs !== undefined) return { retryAt: Date.now() + result.retryAfterMs };
      throw new Error(result.error ?? `status ${result.statusCode}`);
    }
  };
}
