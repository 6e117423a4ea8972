import type { LoginContext } from "@lotline/contract";
import { RevokedIframeKeyError, verifyLiveIframeToken } from "../auth/iframe/live-iframe-token.js";
import { ExpiredIframeTokenError, type IframeSession } from "../auth/tokens/iframe-token.js";
import { InvalidTokenError } from "../auth/tokens/jwt.js";
import type { Services } from "../services.js";
import { issueLoginTicket } from "./login-ticket.js";

export type LoginReason = LoginContext["reason"];

/** A page request's `jwt` either opens a session, or sends the user to `/login` saying why. */
export type PageAccess = { session: IframeSession } | { login: string };

/**
 * Checks the `jwt` query parameter of a page request. Missing → `/login?reason=missing`; anything but a live
 * iframe token of ours (a data API token, a forged or altered one, a repeated parameter) → `reason=invalid`; a
 * genuine iframe token that has only expired, or whose iframe key was revoked → `reason=expired&org=<its
 * organization>&ticket=<login ticket>`, so the login page can tell that organization's host (see `login-ticket.ts`).
 * The token itself never goes into the address.
 */
export async function checkPageToken(services: Services, jwt: unknown): Promise<PageAccess> {
  if (jwt === undefined || jwt === "") return { login: loginLocation("missing") };
  if (typeof jwt !== "string") return { login: loginLocation("invalid") };
  try {
    return { session: await verifyLiveIframeToken(services, jwt) };
  } catch (error) {
    if (error instanceof ExpiredIframeTokenError || error instanceof RevokedIframeKeyError) {
      const ticket = issueLoginTicket(services.digester, error.orgId);
      return { login: loginLocation("expired", { org: error.orgId, ticket }) };
    }
    if (error instanceof InvalidTokenError) return { login: loginLocation("invalid") };
    throw error;
  }
}

/** `/login?reason=…[&org=…&ticket=…]`. */
export function loginLocation(reason: LoginReason, whose?: { org: string; ticket: string }): string {
  return `/login?${new URLSearchParams({ reason, ...whose })}`;
}
