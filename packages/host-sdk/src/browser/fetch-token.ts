/** An iframe JWT and its lifetime in seconds, as the host's own backend hands it to the browser. */
export interface IframeToken {
  token: string;
  /** Seconds the token has left, counted by the server that issued it (not an absolute time). */
  expiresIn: number;
}

/**
 * Gets a fresh iframe JWT from the host's OWN backend, which signs in to Lotline with the iframe key. The key never
 * reaches the browser; this function only calls an endpoint of the host application.
 *
 * @example
 * const fetchToken: FetchToken = async () => {
 *   const response = await fetch("/lotline/token", { method: "POST" });
 *   if (!response.ok) throw new Error(`token request failed: ${response.status}`);
 *   return response.json(); // { token, expiresIn }
 * };
 */
export type FetchToken = () => Promise<IframeToken>;

/**
 * Checks what a `fetchToken` returned, so that a backend answering the wrong shape fails loudly as a failed refresh
 * instead of scheduling the next refresh at `NaN`.
 *
 * @example
 * checkIframeToken({ token: "eyJ…", expiresIn: 3600 }) // returns it unchanged
 * checkIframeToken({ token: "eyJ…", expires_in: 3600 }) // throws TypeError
 */
export function checkIframeToken(value: unknown): IframeToken {
  const candidate = value as Partial<IframeToken> | null;
  if (
    typeof candidate !== "object" ||
    candidate === null ||
    typeof candidate.token !== "string" ||
    candidate.token.length === 0 ||
    typeof candidate.expiresIn !== "number" ||
    !Number.isFinite(candidate.expiresIn) ||
    candidate.expiresIn <= 0
  ) {
    throw new TypeError("fetchToken must resolve to { token: string, expiresIn: number (seconds, > 0) }");
  }
  return { token: candidate.token, expiresIn: candidate.expiresIn };
}
