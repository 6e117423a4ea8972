import type { Transaction } from "kysely";
import type { Schema } from "../db/schema.js";
import { enqueueJob } from "../jobs/index.js";
import type { WebhookEventType } from "./event-types.js";
import { newEventId } from "./new-event-id.js";
import { webhookBody } from "./webhook-body.js";

export const DELIVER_WEBHOOK_JOB = "deliver_webhook";

/**
 * Records an event for one callback URL and queues its delivery, inside the caller's transaction: the event is
 * sent if and only if the change it reports committed. The body is fixed now, so every attempt sends the same
 * bytes under the same `webhook-id`.
 */
export async function recordWebhookEvent(
  trx: Transaction<Schema>,
  event: { orgId: string; type: WebhookEventType; url: string; data: Record<string, unknown> },
): Promise<string> {
  const now = Date.now();
  const eventId = newEventId();
  await trx
    .insertInto("webhook_events")
    .values({
      event_id: eventId,
      org_id: event.orgId,
      type: event.type,
      url: event.url,
      body: webhookBody(event.type, event.data, now),
      status: "pending",
      created_at: now,
    })
    .execute();
  await enqueueJob(trx, DELIVER_WEBHOOK_JOB, { event_id: eventId });
  return eventId;
}
