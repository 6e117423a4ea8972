import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { requireRegisteredCallback } from "../webhooks/require-registered-callback.js";

export interface MonitoringSettings {
  callbackUrl: string | null;
  updatedAt: number | null;
}

/** The organization's monitoring callback, if it set one. */
export async function monitoringSettings(db: Kysely<Schema>, orgId: string): Promise<MonitoringSettings> {
  const row = await db
    .selectFrom("monitoring")
    .select(["callback_url", "updated_at"])
    .where("org_id", "=", orgId)
    .executeTakeFirst();
  return { callbackUrl: row?.callback_url ?? null, updatedAt: row?.updated_at ?? null };
}

/**
 * Sets where the organization's monitoring webhooks go: a URL under one of its registered callback prefixes
 * (else `callback_url_not_registered`, and nothing changes).
 */
export async function setMonitoringCallback(
  db: Kysely<Schema>,
  orgId: string,
  callbackUrl: string,
): Promise<MonitoringSettings> {
  await requireRegisteredCallback(db, orgId, callbackUrl);
  const updatedAt = Date.now();
  await db
    .insertInto("monitoring")
    .values({ org_id: orgId, callback_url: callbackUrl, updated_at: updatedAt })
    .onConflict((conflict) =>
      conflict.column("org_id").doUpdateSet({ callback_url: callbackUrl, updated_at: updatedAt }),
    )
    .execute();
  return { callbackUrl, updatedAt };
}

/** Stops the organization's monitoring webhooks. */
export async function clearMonitoringCallback(db: Kysely<Schema>, orgId: string): Promise<void> {
  await db.deleteFrom("monitoring").where("org_id", "=", orgId).execute();
}
