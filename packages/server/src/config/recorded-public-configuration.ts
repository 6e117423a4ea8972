import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import type { PublicConfiguration } from "./public-configuration.js";

/** A service's public configuration as it recorded it when it started, and when (epoch milliseconds). */
export interface RecordedPublicConfiguration extends PublicConfiguration {
  recordedAt: number;
}

/** One `instance_settings` row holding JSON, so both values are always replaced together. */
const SETTING = "service_public_configuration";

/**
 * Records `configuration` as that of the service now running on this database, for the commands run from other
 * shells, and answers the one it replaces. The last service started wins.
 */
export async function recordPublicConfiguration(
  db: Kysely<Schema>,
  configuration: PublicConfiguration,
  now = Date.now(),
): Promise<RecordedPublicConfiguration | undefined> {
  const previous = await readRecordedPublicConfiguration(db);
  const value = JSON.stringify({
    public_url: configuration.publicUrl,
    api_audience: configuration.apiAudience,
    recorded_at: now,
  });
  await db
    .insertInto("instance_settings")
    .values({ name: SETTING, value })
    .onConflict((conflict) => conflict.column("name").doUpdateSet({ value }))
    .execute();
  return previous;
}

/** The public configuration of the last service started on this database; undefined when none has started. */
export async function readRecordedPublicConfiguration(
  db: Kysely<Schema>,
): Promise<RecordedPublicConfiguration | undefined> {
  const row = await db.selectFrom("instance_settings").select("value").where("name", "=", SETTING).executeTakeFirst();
  return row ? parseRecord(row.value) : undefined;
}

function parseRecord(value: string): RecordedPublicConfiguration | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  const { public_url, api_audience, recorded_at } = (parsed ?? {}) as Record<string, unknown>;
  // Only a hand-edited row fails this; the next service to start writes a good one.
  if (typeof public_url !== "string" || typeof api_audience !== "string" || typeof recorded_at !== "number") {
    return undefined;
  }
  return { publicUrl: public_url, apiAudience: api_audience, recordedAt: recorded_at };
}
