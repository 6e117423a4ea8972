import type { LoginContext } from "@lotline/contract";
import { ExpiredIframeTokenError, type IframeSession, verifyIframeToken } from "../auth/tokens/iframe-token.js";
import { InvalidTokenError } from "../auth/tokens/jwt.js";
import type { Services } from "../services.js";

export type LoginReason = LoginContext["reason"];

/** A page request's `jwt` either opens a session, or sends the user to `/login` saying why. */
export type PageAccess = { session: IframeSession } | { login: string };

/**
 * Checks the `jwt` query parameter of a page request. Missing → `/login?reason=missing`; anything but a live
 * iframe token of ours (a data API token, a forged or altered one, a repeated parameter) → `reason=invalid`; a
 * genuine iframe token that has only expired → `reason=expired&org=<its organization>`, so the login page can tell
 * that organization's host. The token itself never goes into the address.
 */
export async function checkPageToken({ keys, config }: Services, jwt: unknown): Promise<PageAccess> {
  if (jwt === undefined || jwt === "") return { login: loginLocation("missing") };
  if (typeof jwt !== "string") return { login: loginLocation("invalid") };
  try {
    return { session: await verifyIframeToken(keys, config, jwt) };
  } catch (error) {
    if (error instanceof ExpiredIframeTokenError) return { login: loginLocation("expired", error.orgId) };
    if (error instanceof InvalidTokenError) return { login: loginLocation("invalid") };
    throw error;
  }
}

/** `/login?reason=…[&org=…]`. */
export function loginLocation(reason: LoginReason, orgId?: string): string {
  const query = new URLSearchParams({ reason, ...(orgId === undefined ? {} : { org: orgId }) });
  return `/login?${query}`;
}
