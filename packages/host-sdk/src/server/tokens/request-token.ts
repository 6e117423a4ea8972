import { TokenRequestError } from "../errors/token-request-error.js";

/** What the token endpoint needs to issue a data API token. */
export interface ClientCredentials {
  /**
   * The token endpoint ({token_url}), like `https://lotline.example/oauth/token`, or Lotline's origin, like
   * `https://lotline.example` (`/oauth/token` is then added). Any other path throws `ConfigurationError`.
   */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  audience: string;
}

/** A freshly issued token and the lifetime the server gave it. */
export interface IssuedToken {
  accessToken: string;
  expiresInSeconds: number;
}

/**
 * One client credentials request: `POST` to `endpoint` (the token endpoint, `tokenUrl` resolved by `endpointUrl`)
 * with a JSON body (INTERFACE.md §4.2), aborted after `timeoutMs`. A connection that failed without an answer
 * (refused, reset — a pooled connection the server had closed, say) is tried once more at once: asking for a token
 * twice is harmless. A timeout is not retried: the endpoint is up but slow, and a second wait would double the
 * caller's. Throws {@link TokenRequestError}.
 */
export async function requestToken(
  fetchFn: typeof fetch,
  endpoint: string,
  credentials: ClientCredentials,
  timeoutMs: number,
): Promise<IssuedToken> {
  try {
    return await attemptToken(fetchFn, endpoint, credentials, timeoutMs);
  } catch (error) {
    if (!(error instanceof TokenRequestError) || error.code !== "token_endpoint_unreachable") throw error;
    return attemptToken(fetchFn, endpoint, credentials, timeoutMs);
  }
}

async function attemptToken(
  fetchFn: typeof fetch,
  endpoint: string,
  credentials: ClientCredentials,
  timeoutMs: number,
): Promise<IssuedToken> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  let body: unknown;
  try {
    response = await fetchFn(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        audience: credentials.audience,
        grant_type: "client_credentials",
      }),
      signal,
    });
    body = await response.json().catch((error: unknown) => {
      if (signal.aborted) throw error;
      return undefined;
    });
  } catch (cause) {
    throw signal.aborted
      ? new TokenRequestError(
          "token_endpoint_timeout",
          `the token endpoint did not answer within ${timeoutMs} ms`,
          {},
          { cause },
        )
      : new TokenRequestError("token_endpoint_unreachable", "the token endpoint could not be reached", {}, { cause });
  }
  if (!response.ok) throw oauthError(response.status, body);
  const accessToken = field(body, "access_token");
  const expiresIn = field(body, "expires_in");
  if (typeof accessToken !== "string" || accessToken === "" || typeof expiresIn !== "number" || !(expiresIn > 0)) {
    throw new TokenRequestError("invalid_token_response", "the token endpoint answered without a usable token", {
      status: response.status,
    });
  }
  return { accessToken, expiresInSeconds: expiresIn };
}

/** RFC 6749 §5.2: `{error, error_description?}`; anything else still becomes an error naming the status. */
function oauthError(status: number, body: unknown): TokenRequestError {
  const error = field(body, "error");
  const description = field(body, "error_description");
  const code = typeof error === "string" && error !== "" ? error : `http_${status}`;
  const errorDescription = typeof description === "string" ? description : undefined;
  return new TokenRequestError(
    code,
    `the token endpoint refused the request (${status} ${code}${errorDescription ? `: ${errorDescription}` : ""})`,
    { status, errorDescription },
  );
}

function field(body: unknown, name: string): unknown {
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}
