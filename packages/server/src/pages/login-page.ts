import type { LoginContext } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import type { Services } from "../services.js";
import { listHostOrigins } from "../tenancy/host-origins.js";
import { findOrganization } from "../tenancy/organizations.js";
import { pageHeaders } from "./frame-policy.js";
import type { LoginReason } from "./page-access.js";
import { type PageFiles, withInlineJson } from "./page-html.js";

const REASONS: readonly LoginReason[] = ["missing", "invalid", "expired"];

/**
 * `GET /login?reason=missing|invalid|expired[&org=ORG_ID]`: where a page sends its user when the session ended.
 * It holds no data, so any host may frame it; it tells the user to go back to their system and, when it knows
 * the organization, is told that organization's registered origins so it can post `service-error` to its host.
 */
export function registerLoginPage(app: FastifyInstance, { db }: Services, files: PageFiles): void {
  app.get<{ Querystring: { reason?: unknown; org?: unknown } }>(
    "/login",
    { schema: { hide: true } },
    async (request, reply) => {
      const html = await files.html("login");
      const context: LoginContext = {
        reason: loginReason(request.query.reason),
        host_origins: await knownHostOrigins(db, request.query.org),
      };
      return reply
        .headers(pageHeaders("anyone", null))
        .type("text/html; charset=utf-8")
        .send(withInlineJson(html, "lotline-login", context));
    },
  );
}

/** The reason given, or `missing` for none or an unknown one: the page then says only that there is no session. */
function loginReason(value: unknown): LoginReason {
  return REASONS.find((reason) => reason === value) ?? "missing";
}

/** The registered origins of the organization named, or none when the parameter names no organization. */
async function knownHostOrigins(db: Kysely<Schema>, org: unknown): Promise<string[]> {
  if (typeof org !== "string" || org.length === 0 || org.length > 100) return [];
  if (!(await findOrganization(db, org))) return [];
  return listHostOrigins(db, org);
}
