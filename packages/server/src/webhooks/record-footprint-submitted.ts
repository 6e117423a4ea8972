import type { FootprintSubmittedData } from "@lotline/contract";
import type { Transaction } from "kysely";
import type { Schema } from "../db/schema.js";
import { recordWebhookEvent } from "./webhook-events.js";

/**
 * Records a `footprint.submitted` event for `url` and queues its delivery, inside the caller's transaction (the one
 * storing the selection): the webhook goes out if and only if the selection was stored. Returns its `webhook-id`.
 */
export function recordFootprintSubmitted(
  trx: Transaction<Schema>,
  orgId: string,
  url: string,
  data: FootprintSubmittedData,
): Promise<string> {
  return recordWebhookEvent(trx, { orgId, type: "footprint.submitted", url, data });
}
