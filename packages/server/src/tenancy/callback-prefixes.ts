import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { InvalidInputError } from "../errors.js";
import { listRegistered, type Registry, register, unregister } from "./registrations.js";

/**
 * URL prefixes that an organization's `callback_url`s must start with (DESIGN.md §8), so a webhook can only
 * ever reach a place the organization registered beforehand.
 */
export const CALLBACK_PREFIXES: Registry = {
  kind: "callback_prefix",
  normalize: normalizeCallbackPrefix,
  notFoundCode: "callback_prefix_not_found",
};

/** Parses and normalizes a prefix: an absolute http(s) URL without credentials or fragment. */
export function normalizeCallbackPrefix(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new InvalidInputError("invalid_callback_prefix", `not an absolute URL: "${input}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InvalidInputError("invalid_callback_prefix", `a callback URL is http or https, not ${url.protocol}`);
  }
  if (url.username || url.password || url.hash) {
    throw new InvalidInputError("invalid_callback_prefix", "a callback prefix carries no credentials or fragment");
  }
  return url.href;
}

export const addCallbackPrefix = (db: Kysely<Schema>, orgId: string, input: string) =>
  register(db, CALLBACK_PREFIXES, orgId, input);
export const listCallbackPrefixes = (db: Kysely<Schema>, orgId: string) => listRegistered(db, CALLBACK_PREFIXES, orgId);
export const removeCallbackPrefix = (db: Kysely<Schema>, orgId: string, input: string) =>
  unregister(db, CALLBACK_PREFIXES, orgId, input);
