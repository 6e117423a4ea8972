import type { Services } from "../../services.js";
import { type ApiClient, findActiveApiClient } from "../../tenancy/api-clients.js";
import { recordFailedAttempt, recordSuccessfulAttempt, retryAfterSeconds } from "../limits/authentication-attempts.js";
import type { PresentedClient } from "./client-credentials.js";
import { invalidClient, tooManyRequests } from "./oauth-error.js";

/**
 * Checks the presented secret. An address that keeps failing for a client id, or with any client ids, backs off
 * (a 429 before any secret is compared), so guessing is slow whichever of the two an attacker varies, while the
 * client itself, calling from its own address, is never refused for another's failures.
 */
export async function authenticateClient(
  { db, digester, authFailures, config }: Services,
  presented: PresentedClient,
  ip: string,
): Promise<ApiClient> {
  const attempt = { credential: `client:${presented.clientId}`, address: ip };
  const retryAfter = retryAfterSeconds(authFailures, config.authFailureLimits, attempt);
  if (retryAfter > 0) {
    throw tooManyRequests("too many failed authentications from this address; try again later", retryAfter);
  }

  const client = await findActiveApiClient(db, presented.clientId);
  if (!digester.matches(presented.clientSecret, client?.secret_digest) || !client) {
    recordFailedAttempt(authFailures, attempt);
    throw invalidClient();
  }
  recordSuccessfulAttempt(authFailures, attempt);
  return client;
}
