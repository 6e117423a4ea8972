import type { LoginContext } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import type { Services } from "../services.js";
import { listHostOrigins } from "../tenancy/host-origins.js";
import { findOrganization } from "../tenancy/organizations.js";
import { pageHeaders } from "./frame-policy.js";
import { isLoginTicketFor } from "./login-ticket.js";
import type { LoginReason } from "./page-access.js";
import { type PageFiles, withInlineJson } from "./page-html.js";

const REASONS: readonly LoginReason[] = ["missing", "invalid", "expired"];

/**
 * `GET /login?reason=missing|invalid|expired[&org=ORG_ID&ticket=TICKET]`: where a page sends its user when the
 * session ended. It holds no data, so any host may frame it; it tells the user to go back to their system. Only
 * with a live login ticket for the organization — which the service puts in its own redirect from a page whose
 * token expired — is it told that organization's registered origins, so it can post `service-error` to its host.
 */
export function registerLoginPage(app: FastifyInstance, services: Services, files: PageFiles): void {
  app.get<{ Querystring: { reason?: unknown; org?: unknown; ticket?: unknown } }>(
    "/login",
    { schema: { hide: true } },
    async (request, reply) => {
      const html = await files.html("login");
      const context: LoginContext = {
        reason: loginReason(request.query.reason),
        host_origins: await ticketedHostOrigins(services, request.query.org, request.query.ticket),
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

/** The registered origins of the organization named, when the ticket is a live one for it; otherwise none. */
async function ticketedHostOrigins({ db, digester }: Services, org: unknown, ticket: unknown): Promise<string[]> {
  if (typeof org !== "string" || org.length === 0 || org.length > 100) return [];
  if (!isLoginTicketFor(digester, org, ticket)) return [];
  if (!(await findOrganization(db, org))) return [];
  return listHostOrigins(db, org);
}
