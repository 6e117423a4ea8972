import type { CallbackCheck } from "@lotline/contract";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { listCallbackPrefixes } from "../tenancy/callback-prefixes.js";
import { callbackUrlAllowed } from "../webhooks/callback-url-allowed.js";

export { CALLBACK_CHECK_ELEMENT_ID } from "@lotline/contract";

/**
 * Checks the `callback_url` a page was opened with, as the page will send it (the first value, trimmed), against
 * the organization's registered callback prefixes, so that the page can say at once that it cannot be used rather
 * than after the user's work is refused. Undefined when the page was given none.
 */
export async function checkPageCallback(
  db: Kysely<Schema>,
  orgId: string,
  value: unknown,
): Promise<CallbackCheck | undefined> {
  const first = Array.isArray(value) ? value[0] : value;
  const url = typeof first === "string" ? first.trim() : "";
  if (url === "") return undefined;
  const registered = callbackUrlAllowed(url, await listCallbackPrefixes(db, orgId));
  return { callback_url: registered ? "registered" : "not_registered" };
}
