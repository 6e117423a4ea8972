import type { Services } from "../../services.js";
import { type ApiClient, findActiveApiClient } from "../../tenancy/api-clients.js";
import type { PresentedClient } from "./client-credentials.js";
import { invalidClient, tooManyRequests } from "./oauth-error.js";

/**
 * Checks the presented secret. A client id or an address that keeps failing is turned away with a 429 for the
 * rest of its window before any secret is compared, so guessing is slow whichever of the two an attacker varies.
 */
export async function authenticateClient(
  { db, digester, authFailures, config }: Services,
  presented: PresentedClient,
  ip: string,
): Promise<ApiClient> {
  const limits = config.authFailureLimits;
  const clientKey = `client:${presented.clientId}`;
  const ipKey = `ip:${ip}`;
  const retryAfter = Math.max(
    authFailures.retryAfterSeconds(clientKey, limits.perClientId),
    authFailures.retryAfterSeconds(ipKey, limits.perIp),
  );
  if (retryAfter > 0) throw tooManyRequests("too many failed authentications; try again later", retryAfter);

  const client = await findActiveApiClient(db, presented.clientId);
  if (!digester.matches(presented.clientSecret, client?.secret_digest) || !client) {
    authFailures.recordFailure(clientKey);
    authFailures.recordFailure(ipKey);
    throw invalidClient();
  }
  return client;
}
