import { endpointUrl } from "../urls/endpoint-url.js";
import { createMemoryTokenStore } from "./memory-token-store.js";
import { refreshMarginMs } from "./refresh-margin.js";
import { type ClientCredentials, requestToken } from "./request-token.js";
import type { StoredToken, TokenStore } from "./token-store.js";

/** Options of {@link createTokenProvider}. */
export interface TokenProviderOptions extends ClientCredentials {
  /** Where the token is kept; a shared store lets many processes use one token. Default: this process's memory. */
  store?: TokenStore;
  /**
   * Seconds before expiry at which the token is replaced. Default: 5 minutes, or a tenth of the lifetime when
   * shorter. Capped at half the lifetime.
   */
  refreshMargin?: number;
  /** The fetch to use (a proxy agent, a test double). Default: the global fetch. */
  fetch?: typeof fetch;
  /**
   * How long one token request may take before it is aborted (`token_endpoint_timeout`), in milliseconds.
   * Default 10 000.
   */
  timeoutMs?: number;
  /** A monotonic clock in milliseconds. Default: `performance.now()`. */
  now?: () => number;
}

/** Hands out a valid data API bearer token, asking the token endpoint only when needed. */
export interface TokenProvider {
  /** A token valid for a while yet: the cached one, or a fresh one when it is near its expiry. */
  getToken(): Promise<string>;
  /**
   * Forgets the cached token (here and in the store) after the API refused it, so the next `getToken` asks for a
   * new one. Pass the refused token: a call that arrives after another caller already replaced it is then ignored.
   */
  invalidate(accessToken?: string): Promise<void>;
}

/** How long a still-valid token is used after a failed refresh before the next attempt. */
const RETRY_AFTER_FAILURE_MS = 10_000;

/** The cached token with its instants on this process's monotonic clock. */
interface Cached {
  accessToken: string;
  refreshAt: number;
  expiresAt: number;
}

/**
 * A token provider for the data API (INTERFACE.md §5.2). It requests a token with the client credentials grant,
 * keeps it, and reuses it until shortly before `expires_in` runs out, as the service expects of its clients (it
 * warns and then refuses clients that ask for tokens far more often).
 *
 * - One request in flight: concurrent callers during a refresh all wait for the same request.
 * - Each request is aborted after `timeoutMs` (10 s); one whose connection failed (refused, reset) is tried once
 *   more at once, a timed-out one is not.
 * - A failed request rejects the callers waiting on it but is not remembered: the next call tries again. While the
 *   previous token has not actually expired, callers get it instead of the error, and the next attempt waits
 *   10 seconds (less when expiry is nearer) so a failing endpoint is not asked on every API call.
 * - Time is measured on the monotonic clock, so a wall-clock jump neither keeps an expired token nor drops a
 *   good one.
 * - With a shared {@link TokenStore}, a provider first looks for a token another process stored.
 * - `tokenUrl` is the token endpoint or Lotline's origin; any other address throws `ConfigurationError` here,
 *   not at the first request.
 *
 * @example
 * ```ts
 * const tokens = createTokenProvider({
 *   tokenUrl: process.env.LOTLINE_TOKEN_URL, // https://lotline.example/oauth/token, or just the origin
 *   clientId: process.env.LOTLINE_CLIENT_ID,
 *   clientSecret: process.env.LOTLINE_CLIENT_SECRET,
 *   audience: process.env.LOTLINE_AUDIENCE,
 * });
 * const response = await fetch(`${baseUrl}/v1/me`, {
 *   headers: { authorization: `Bearer ${await tokens.getToken()}` },
 * });
 * ```
 */
export function createTokenProvider(options: TokenProviderOptions): TokenProvider {
  const store = options.store ?? createMemoryTokenStore();
  const fetchFn = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => performance.now());
  const timeoutMs = options.timeoutMs ?? 10_000;
  // A wrong address fails here, at start-up, rather than as a 404 on the first call.
  const endpoint = endpointUrl("tokenUrl", options.tokenUrl);
  // One token per endpoint, client and audience: an origin and its /oauth/token are one endpoint, so one key.
  const key = JSON.stringify(["lotline-token", endpoint, options.clientId, options.audience]);
  let cached: Cached | undefined;
  let inflight: Promise<string> | undefined;

  /** Takes a stored token onto the monotonic clock: its time left is what counts, not its wall-clock instants. */
  function adopt(token: StoredToken): Cached {
    const left = token.expiresAt - Date.now();
    const margin = refreshMarginMs(token.expiresAt - token.issuedAt, options.refreshMargin);
    const at = now();
    return { accessToken: token.accessToken, refreshAt: at + left - margin, expiresAt: at + left };
  }

  async function refresh(): Promise<string> {
    const shared = await readStore();
    if (shared && now() < shared.refreshAt) {
      cached = shared;
      return shared.accessToken;
    }
    try {
      const issued = await requestToken(fetchFn, endpoint, options, timeoutMs);
      const issuedAt = Date.now();
      const token = { accessToken: issued.accessToken, issuedAt, expiresAt: issuedAt + issued.expiresInSeconds * 1000 };
      cached = adopt(token);
      // A store that cannot be written costs other processes a token request, not this caller its token.
      await store.set(key, token).catch(() => undefined);
      return token.accessToken;
    } catch (error) {
      // This process's token, or one another process stored that is near its end but still good.
      const previous = cached ?? shared;
      const at = now();
      if (!previous || at >= previous.expiresAt) throw error;
      cached = previous;
      // Every API call would otherwise ask the failing endpoint again; pause a little, well before expiry.
      previous.refreshAt = at + Math.min(RETRY_AFTER_FAILURE_MS, (previous.expiresAt - at) / 2);
      return previous.accessToken;
    }
  }

  /** A store that cannot be read is treated as empty: the token endpoint is the source of truth. */
  async function readStore(): Promise<Cached | undefined> {
    const stored = await store.get(key).catch(() => undefined);
    return stored ? adopt(stored) : undefined;
  }

  return {
    getToken() {
      if (cached && now() < cached.refreshAt) return Promise.resolve(cached.accessToken);
      inflight ??= refresh().finally(() => {
        inflight = undefined;
      });
      return inflight;
    },
    async invalidate(accessToken) {
      if (accessToken !== undefined && cached !== undefined && cached.accessToken !== accessToken) return;
      const refused = accessToken ?? cached?.accessToken;
      cached = undefined;
      const stored = await store.get(key).catch(() => undefined);
      // Another process may have stored a newer token already; only the refused one is removed.
      if (stored && (refused === undefined || stored.accessToken === refused)) {
        await store.delete(key).catch(() => undefined);
      }
    },
  };
}
