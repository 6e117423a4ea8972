/**
 * An OAuth 2.0 error response (RFC 6749 §5.2), carrying its wire code. Thrown by the token endpoint's checks and
 * written as `{"error","error_description"}` by the one error handler.
 */
export class OAuthError extends Error {
  override name = "OAuthError";

  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export const invalidRequest = (description: string) => new OAuthError("invalid_request", description);

/** One description for an unknown client and a wrong secret, so neither can be told from the other. */
export const invalidClient = () =>
  new OAuthError("invalid_client", "client authentication failed", 401, {
    "www-authenticate": 'Basic realm="lotline", charset="UTF-8"',
  });

export const unsupportedGrantType = (grantType: string) =>
  new OAuthError("unsupported_grant_type", `grant_type "${grantType}" is not supported; use client_credentials`);

/**
 * Names the audience this service accepts: the usual cause is a client configured for another port or deployment,
 * and the accepted value is public anyway (it is in every token and in the missing-audience error).
 */
export const invalidTarget = (audience: string, accepted: string) =>
  new OAuthError("invalid_target", `unknown audience "${audience}"; this service issues tokens for "${accepted}"`);

export const tooManyRequests = (description: string, retryAfterSeconds: number) =>
  new OAuthError("slow_down", description, 429, { "retry-after": String(retryAfterSeconds) });
