import type { Kysely } from "kysely";
import type { TokenLimits } from "../../config/config.js";
import type { Schema } from "../../db/schema.js";

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

export type IssuanceVerdict =
  | { allowed: true; warning?: string }
  | { allowed: false; retryAfterSeconds: number; reason: string };

/**
 * Counts the tokens a client asks for, per clock hour and per UTC day, in the database so every process of a
 * deployment sees the same counts. A client that caches its token (INTERFACE.md §5.2) asks about once a day;
 * one past the soft limit gets a warning header, one past the hard limit a 429 until its window ends.
 */
export async function recordIssuance(
  db: Kysely<Schema>,
  clientId: string,
  limits: TokenLimits,
  now = Date.now(),
): Promise<IssuanceVerdict> {
  const hourStart = now - (now % HOUR_MS);
  const dayStart = now - (now % DAY_MS);
  const counts = await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("token_issuances")
      .where("client_id", "=", clientId)
      .where("window_start", "<", dayStart)
      .execute();
    return trx
      .insertInto("token_issuances")
      .values([
        { client_id: clientId, period: "hour", window_start: hourStart, count: 1 },
        { client_id: clientId, period: "day", window_start: dayStart, count: 1 },
      ])
      .onConflict((conflict) =>
        conflict
          .columns(["client_id", "period", "window_start"])
          .doUpdateSet((eb) => ({ count: eb(eb.ref("token_issuances.count"), "+", 1) })),
      )
      .returning(["period", "count"])
      .execute();
  });
  const hour = counts.find((row) => row.period === "hour")?.count ?? 0;
  const day = counts.find((row) => row.period === "day")?.count ?? 0;

  // The day first: its window never ends before the hour's, so Retry-After names the later of the two.
  if (over(day, limits.hardPerDay)) {
    return refuse(dayStart + DAY_MS - now, `more than ${limits.hardPerDay} tokens today`);
  }
  if (over(hour, limits.hardPerHour)) {
    return refuse(hourStart + HOUR_MS - now, `more than ${limits.hardPerHour} tokens this hour`);
  }
  if (over(hour, limits.softPerHour) || over(day, limits.softPerDay)) {
    return {
      allowed: true,
      warning: `${hour} tokens this hour and ${day} today: reuse each token for its 24 hours`,
    };
  }
  return { allowed: true };
}

function over(count: number, limit: number): boolean {
  return limit > 0 && count > limit;
}

function refuse(remainingMs: number, reason: string): IssuanceVerdict {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(remainingMs / 1000)), reason };
}
