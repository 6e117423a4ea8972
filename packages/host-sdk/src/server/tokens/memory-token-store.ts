import type { StoredToken, TokenStore } from "./token-store.js";

interface Entry {
  accessToken: string;
  /** Issue and expiry on the monotonic clock (performance.now() milliseconds). */
  issuedAtMonotonic: number;
  expiresAtMonotonic: number;
}

/**
 * A {@link TokenStore} in this process's memory: the default of {@link createTokenProvider}, and shareable by
 * several providers of one process (they then share one token).
 *
 * It keeps expiries on the monotonic clock (`performance.now()`), not the wall clock: when the machine's clock is
 * set back or jumps forward (NTP correction, a VM resumed), a token is still kept exactly as long as the server
 * granted. `get` expresses the expiry on the current wall clock, so the provider's arithmetic
 * (`expiresAt - Date.now()`) yields the true time left whatever the wall clock did in between.
 *
 * @example
 * ```ts
 * const store = createMemoryTokenStore();
 * const reports = createTokenProvider({ ...credentials, store });
 * const orders = createTokenProvider({ ...credentials, store }); // same token as `reports`
 * ```
 */
export function createMemoryTokenStore(): TokenStore {
  const entries = new Map<string, Entry>();
  return {
    async get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      // One reading of each clock, so both instants shift by the same amount.
      const offset = Date.now() - performance.now();
      const token: StoredToken = {
        accessToken: entry.accessToken,
        issuedAt: entry.issuedAtMonotonic + offset,
        expiresAt: entry.expiresAtMonotonic + offset,
      };
      return token;
    },
    async set(key, token) {
      const offset = performance.now() - Date.now();
      entries.set(key, {
        accessToken: token.accessToken,
        issuedAtMonotonic: token.issuedAt + offset,
        expiresAtMonotonic: token.expiresAt + offset,
      });
    },
    async delete(key) {
      entries.delete(key);
    },
  };
}
