import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { InvalidInputError } from "../errors.js";
import { listRegistered, type Registry, register, unregister } from "./registrations.js";

/**
 * The origins of host pages allowed to frame an organization's embeddable pages (INTERFACE.md §1: "every
 * endpoint that serves the iframe must be registered"). They become `frame-ancestors` and `postMessage` targets.
 */
export const HOST_ORIGINS: Registry = {
  kind: "host_origin",
  normalize: normalizeOrigin,
  notFoundCode: "origin_not_found",
};

/** `https://Core.Example.com:443/` → `https://core.example.com`; anything but a bare origin is refused. */
export function normalizeOrigin(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new InvalidInputError("invalid_origin", `not an absolute URL: "${input}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InvalidInputError("invalid_origin", `an origin is http or https, not ${url.protocol}`);
  }
  if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) {
    throw new InvalidInputError("invalid_origin", `an origin is scheme, host and port only: "${input}"`);
  }
  return url.origin;
}

export const addHostOrigin = (db: Kysely<Schema>, orgId: string, input: string) =>
  register(db, HOST_ORIGINS, orgId, input);
export const listHostOrigins = (db: Kysely<Schema>, orgId: string) => listRegistered(db, HOST_ORIGINS, orgId);
export const removeHostOrigin = (db: Kysely<Schema>, orgId: string, input: string) =>
  unregister(db, HOST_ORIGINS, orgId, input);
