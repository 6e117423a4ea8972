import type { WebhookDelivery, WebhookDeliveryList } from "@lotline/contract";
import type { Kysely, Selectable } from "kysely";
import type { Schema, WebhookAttemptTable, WebhookEventStatus, WebhookEventTable } from "../db/schema.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { enqueueJob } from "../jobs/index.js";
import { DELIVER_WEBHOOK_JOB } from "./webhook-events.js";

/** The organization's webhook events with every delivery attempt, newest first, a page at a time. */
export async function listWebhookDeliveries(
  db: Kysely<Schema>,
  orgId: string,
  { status, limit, cursor }: { status?: WebhookEventStatus; limit: number; cursor?: string },
): Promise<WebhookDeliveryList> {
  let query = db.selectFrom("webhook_events").selectAll().where("org_id", "=", orgId);
  if (status) query = query.where("status", "=", status);
  if (cursor) {
    const [createdAt, eventId] = decodeCursor(cursor);
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", createdAt),
        eb.and([eb("created_at", "=", createdAt), eb("event_id", "<", eventId)]),
      ]),
    );
  }
  const events = await query
    .orderBy("created_at", "desc")
    .orderBy("event_id", "desc")
    .limit(limit + 1)
    .execute();
  const page = events.slice(0, limit);
  const attempts = page.length
    ? await db
        .selectFrom("webhook_attempts")
        .selectAll()
        .where(
          "event_id",
          "in",
          page.map((event) => event.event_id),
        )
        .orderBy("attempt_id")
        .execute()
    : [];
  const last = page.at(-1);
  return {
    data: page.map((event) =>
      presentDelivery(
        event,
        attempts.filter((attempt) => attempt.event_id === event.event_id),
      ),
    ),
    next_cursor:
      events.length > limit && last
        ? Buffer.from(JSON.stringify([last.created_at, last.event_id])).toString("base64url")
        : null,
  };
}

/** One of the organization's webhook events with every delivery attempt; another organization's is not found. */
export async function getWebhookDelivery(db: Kysely<Schema>, orgId: string, eventId: string): Promise<WebhookDelivery> {
  const event = await db
    .selectFrom("webhook_events")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("event_id", "=", eventId)
    .executeTakeFirst();
  if (!event) throw new NotFoundError("webhook_delivery_not_found", `no webhook delivery ${eventId}`);
  const attempts = await db
    .selectFrom("webhook_attempts")
    .selectAll()
    .where("event_id", "=", eventId)
    .orderBy("attempt_id")
    .execute();
  return presentDelivery(event, attempts);
}

function presentDelivery(
  event: Selectable<WebhookEventTable>,
  attempts: ReadonlyArray<Selectable<WebhookAttemptTable>>,
): WebhookDelivery {
  return {
    webhook_id: event.event_id,
    type: event.type,
    url: event.url,
    status: event.status,
    created_at: new Date(event.created_at).toISOString(),
    delivered_at: event.delivered_at === null ? null : new Date(event.delivered_at).toISOString(),
    payload: JSON.parse(event.body),
    attempts: attempts.map((attempt) => ({
      attempted_at: new Date(attempt.attempted_at).toISOString(),
      duration_ms: attempt.duration_ms,
      status_code: attempt.status_code,
      error: attempt.error,
      response_excerpt: attempt.response_excerpt,
    })),
  };
}

/**
 * Sends an event again, with the same `webhook-id` and body: back to pending and a new delivery job. An event
 * still pending is already on its way and is left as it is.
 */
export async function redeliverWebhook(db: Kysely<Schema>, orgId: string, eventId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const event = await trx
      .selectFrom("webhook_events")
      .select("status")
      .where("org_id", "=", orgId)
      .where("event_id", "=", eventId)
      .executeTakeFirst();
    if (!event) throw new NotFoundError("webhook_delivery_not_found", `no webhook delivery ${eventId}`);
    if (event.status === "pending") return;
    await trx
      .updateTable("webhook_events")
      .set({ status: "pending", delivered_at: null })
      .where("event_id", "=", eventId)
      .execute();
    await enqueueJob(trx, DELIVER_WEBHOOK_JOB, { event_id: eventId });
  });
}

function decodeCursor(cursor: string): [number, string] {
  try {
    const [createdAt, eventId] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    // Only what the API wrote: a forged cursor must not reach the database as a value it cannot compare.
    if (
      Number.isSafeInteger(createdAt) &&
      createdAt >= 0 &&
      typeof eventId === "string" &&
      /^msg_\w{1,64}$/.test(eventId)
    ) {
      return [createdAt, eventId];
    }
  } catch {
    // answered below
  }
  throw new InvalidInputError("invalid_cursor", "the cursor is not one this API returned");
}
