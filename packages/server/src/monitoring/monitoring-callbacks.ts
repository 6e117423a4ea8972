import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { listCallbackPrefixes } from "../tenancy/callback-prefixes.js";
import { callbackUrlAllowed } from "../webhooks/callback-url-allowed.js";

/**
 * Where each organization's monitoring notices go, looked up once per organization for a whole unit of work (an
 * import notifies many properties of few organizations): its monitoring callback, or null when it set none or
 * has since removed the prefix the callback was under, which is no longer a place it wants notices.
 */
export class MonitoringCallbacks {
  readonly #known = new Map<string, Promise<string | null>>();

  constructor(private readonly db: Kysely<Schema>) {}

  of(orgId: string): Promise<string | null> {
    let known = this.#known.get(orgId);
    if (!known) {
      known = this.#lookUp(orgId);
      this.#known.set(orgId, known);
    }
    return known;
  }

  async #lookUp(orgId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("monitoring")
      .select("callback_url")
      .where("org_id", "=", orgId)
      .executeTakeFirst();
    if (!row) return null;
    return callbackUrlAllowed(row.callback_url, await listCallbackPrefixes(this.db, orgId)) ? row.callback_url : null;
  }
}
