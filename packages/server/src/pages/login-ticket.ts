import type { SecretDigester } from "../tenancy/secrets.js";

/** How long after a page saw an expired token `/login` may still tell that organization's host. */
const LIFETIME_SECONDS = 600;
const TICKET = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * A login ticket: proof, for a few minutes, that the service itself sent a user to `/login` from a page of
 * organization `orgId` (whose genuine token had expired). `/login` tells the registered host origins only to a
 * request carrying one, so an organization id alone (it is in every iframe JWT) reveals nothing. `until.mac`, the
 * MAC keyed by the deployment's digest key, over a label of its own so it can never pass for a secret's digest.
 */
export function issueLoginTicket(digester: SecretDigester, orgId: string, now = Date.now()): string {
  const until = Math.floor(now / 1000) + LIFETIME_SECONDS;
  return `${until}.${digester.digest(ticketMaterial(orgId, until))}`;
}

/** Whether `ticket` is a live login ticket for `orgId`. */
export function isLoginTicketFor(digester: SecretDigester, orgId: string, ticket: unknown, now = Date.now()): boolean {
  if (typeof ticket !== "string") return false;
  const match = TICKET.exec(ticket);
  if (!match) return false;
  const until = Number(match[1]);
  if (until * 1000 <= now) return false;
  return digester.matches(ticketMaterial(orgId, until), match[2]);
}

function ticketMaterial(orgId: string, until: number): string {
  return `lotline-login-ticket\n${orgId}\n${until}`;
}
