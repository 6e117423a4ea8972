import { IframeTokenError } from "../errors/iframe-token-error.js";
import { endpointUrl } from "../urls/endpoint-url.js";

/** Options of {@link fetchIframeToken}. */
export interface FetchIframeTokenOptions {
  /**
   * The iframe sign-in endpoint ({iframe_auth_url}), like `https://lotline.example/auth/signin/integration`, or
   * Lotline's origin, like `https://lotline.example` (`/auth/signin/integration` is then added). Any other path
   * rejects with `ConfigurationError` before any request.
   */
  iframeAuthUrl: string;
  /** The client organization id. */
  orgId: string;
  /** The API key issued for the iframe integration only. Keep it on the server: never send it to a browser. */
  iframeApiKey: string;
  /** The fetch to use. Default: the global fetch. */
  fetch?: typeof fetch;
  /** How long the sign-in may take before it is aborted (`signin_timeout`), in milliseconds. Default 10 000. */
  timeoutMs?: number;
}

/** An iframe JWT and its lifetime. */
export interface IframeToken {
  /** The JWT for the `jwt` query parameter of the embeddable pages. */
  token: string;
  /** The moment it expires, ISO 8601 UTC, as the server said. */
  expires: string;
  /** Seconds of life the server gave the token when it issued it (`exp - iat`). */
  expiresIn: number;
}

/**
 * Signs in to the iframe integration (`POST /auth/signin/integration`, HTTP Basic with the organization id and the
 * iframe API key, no body) and returns the JWT with its lifetime. Call it from the host's own backend and hand
 * `{token, expiresIn}` to the browser, which schedules its refresh from `expiresIn`.
 *
 * `expiresIn` comes from the token's own `iat` and `exp`, both set by the server's clock, rather than from
 * `expires` minus this machine's clock: this server's clock (or the user's browser clock, later) may be minutes
 * off, and a lifetime computed across two clocks would carry that error into every refresh schedule. The
 * server-to-server difference is exact; the only error left is the request's own latency, which errs early.
 *
 * The request is aborted after `timeoutMs` (10 s) and is not retried: the browser entry asks again on its own
 * schedule.
 *
 * @example
 * ```ts
 * app.post("/lotline/iframe-token", async (request, reply) => {
 *   const { token, expiresIn } = await fetchIframeToken({
 *     iframeAuthUrl: process.env.LOTLINE_IFRAME_AUTH_URL,
 *     orgId: process.env.LOTLINE_ORG_ID,
 *     iframeApiKey: process.env.LOTLINE_IFRAME_API_KEY,
 *   });
 *   return reply.header("cache-control", "no-store").send({ token, expiresIn });
 * });
 * ```
 */
export async function fetchIframeToken(options: FetchIframeTokenOptions): Promise<IframeToken> {
  const endpoint = endpointUrl("iframeAuthUrl", options.iframeAuthUrl);
  const fetchFn = options.fetch ?? globalThis.fetch;
  const credentials = Buffer.from(`${options.orgId}:${options.iframeApiKey}`, "utf8").toString("base64");
  const timeoutMs = options.timeoutMs ?? 10_000;
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  let body: { token?: unknown; expires?: unknown } | undefined;
  try {
    response = await fetchFn(endpoint, {
      method: "POST",
      headers: { authorization: `Basic ${credentials}`, accept: "application/json" },
      signal,
    });
    body = await response.json().catch((error: unknown) => {
      if (signal.aborted) throw error;
      return undefined;
    });
  } catch (cause) {
    throw signal.aborted
      ? new IframeTokenError("signin_timeout", `iframe sign-in did not answer within ${timeoutMs} ms`, undefined, {
          cause,
        })
      : new IframeTokenError("signin_unreachable", "the iframe sign-in endpoint could not be reached", undefined, {
          cause,
        });
  }
  if (response.status === 401) {
    throw new IframeTokenError(
      "invalid_credentials",
      "iframe sign-in refused the organization id or iframe API key",
      401,
    );
  }
  if (!response.ok) {
    throw new IframeTokenError("signin_failed", `iframe sign-in answered ${response.status}`, response.status);
  }
  const token = body?.token;
  const expires = body?.expires;
  const expiresIn = typeof token === "string" ? lifetimeSeconds(token) : undefined;
  if (typeof token !== "string" || typeof expires !== "string" || expiresIn === undefined) {
    throw new IframeTokenError(
      "invalid_signin_response",
      "iframe sign-in answered without a usable JWT",
      response.status,
    );
  }
  return { token, expires, expiresIn };
}

/** `exp - iat` of a JWT's payload, read without verifying it: the host only needs the lifetime, not trust. */
function lifetimeSeconds(jwt: string): number | undefined {
  const payload = jwt.split(".")[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { iat?: unknown; exp?: unknown };
    const { iat, exp } = claims;
    return typeof iat === "number" && typeof exp === "number" && exp > iat ? exp - iat : undefined;
  } catch {
    return undefined;
  }
}
