import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { InvalidInputError } from "../errors.js";
import { listCallbackPrefixes } from "../tenancy/callback-prefixes.js";
import { callbackUrlAllowed } from "./callback-url-allowed.js";

/**
 * Refuses a callback URL that does not start with one of the organization's registered callback prefixes
 * (`callback_url_not_registered`, the code an order's callback gets), before anything is written.
 */
export async function requireRegisteredCallback(db: Kysely<Schema>, orgId: string, url: string): Promise<void> {
  if (!callbackUrlAllowed(url, await listCallbackPrefixes(db, orgId))) {
    throw new InvalidInputError(
      "callback_url_not_registered",
      "callback_url does not start with one of the organization's registered callback prefixes",
    );
  }
}
