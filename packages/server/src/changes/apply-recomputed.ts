import type { PropertyChangedData } from "@lotline/contract";
import type { Transaction } from "kysely";
import type { Schema } from "../db/schema.js";
import type { MonitoringCallbacks } from "../monitoring/monitoring-callbacks.js";
import type { StoredRecord } from "../orders/property-records.js";
import type { LotBox } from "../versions/lot-box.js";
import { storeVersion } from "../versions/store-version.js";
import { recordWebhookEvent } from "../webhooks/webhook-events.js";
import { diffRecords } from "./record-diff.js";

/** A property whose record was computed again because imported data under it changed. */
export interface RecomputedRecord {
  propertyId: number;
  orgId: string;
  externalId: string | null;
  before: StoredRecord | null;
  after: StoredRecord;
  lot: LotBox;
}

/**
 * Keeps a record computed again only if a figure of it changed: then it becomes the property's next version and,
 * when the organization monitors, one `property.changed` webhook carries the changes — inside the caller's
 * transaction, so the notice exists exactly when the version does. Answers whether it changed.
 */
export async function applyRecomputed(
  trx: Transaction<Schema>,
  callbacks: MonitoringCallbacks,
  recomputed: RecomputedRecord,
  now: number,
): Promise<boolean> {
  const changes = diffRecords(recomputed.before, recomputed.after);
  if (changes.length === 0) return false;
  const version = await storeVersion(trx, {
    propertyId: recomputed.propertyId,
    record: recomputed.after,
    lot: recomputed.lot,
    cause: "data_change",
    now,
  });
  const url = await callbacks.of(recomputed.orgId);
  if (url) {
    const data: PropertyChangedData = {
      property_id: recomputed.propertyId,
      external_id: recomputed.externalId,
      version,
      changes,
    };
    await recordWebhookEvent(trx, { orgId: recomputed.orgId, type: "property.changed", url, data });
  }
  return true;
}
