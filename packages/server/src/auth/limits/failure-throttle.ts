/** Most keys tracked at once; the oldest entries are dropped first past this, so memory stays bounded. */
const MAX_KEYS = 100_000;
/** Keys are cut to this length: real ones are short, and an attacker's megabyte-long id must not cost a megabyte. */
const MAX_KEY_LENGTH = 200;
/** The first refusal past the free failures lasts this long; each further failure doubles it, up to the cap. */
const FIRST_DELAY_MS = 1000;
/** A key with no failure for this long is forgotten (longer when the cap is longer, so no refusal is cut short). */
const QUIET_MS = 15 * 60_000;

interface Failures {
  count: number;
  lastAt: number;
}

/**
 * Counts failed authentications per key (a credential from one address, or an address) and backs off
 * exponentially: after `limit` failures a key is refused for 1 s, then 2 s, 4 s … up to `maxDelayMs`, counted from
 * its last failure. A success forgets the key, and so does a quiet spell. Short refusals slow guessing to a crawl
 * without locking anyone out for long. Kept in memory: under a guessing attack, writing each failure to the
 * database would be the attack's best lever. Each process counts on its own.
 */
export class FailureThrottle {
  readonly #failures = new Map<string, Failures>();
  readonly #forgetAfterMs: number;

  constructor(
    private readonly maxDelayMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.#forgetAfterMs = Math.max(QUIET_MS, 2 * maxDelayMs);
  }

  /** Seconds until `key` may try again, else 0. `limit` failures are free; a limit of 0 never refuses. */
  retryAfterSeconds(key: string, limit: number): number {
    const failures = this.#current(key.slice(0, MAX_KEY_LENGTH));
    if (limit === 0 || !failures || failures.count < limit) return 0;
    const delay = Math.min(FIRST_DELAY_MS * 2 ** (failures.count - limit), this.maxDelayMs);
    const left = failures.lastAt + delay - this.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  recordFailure(fullKey: string): void {
    const key = fullKey.slice(0, MAX_KEY_LENGTH);
    const failures = this.#current(key);
    // Re-inserted, so the map's order stays "least recently failed first" for eviction.
    this.#failures.delete(key);
    if (this.#failures.size >= MAX_KEYS) this.#evictOldest();
    this.#failures.set(key, { count: (failures?.count ?? 0) + 1, lastAt: this.now() });
  }

  /** Forgets `key`'s failures: its owner has just proved who it is. */
  recordSuccess(key: string): void {
    this.#failures.delete(key.slice(0, MAX_KEY_LENGTH));
  }

  #current(key: string): Failures | undefined {
    const failures = this.#failures.get(key);
    if (failures && this.now() - failures.lastAt >= this.#forgetAfterMs) {
      this.#failures.delete(key);
      return undefined;
    }
    return failures;
  }

  #evictOldest(): void {
    // Maps iterate in insertion order, so the first keys are those that failed least recently.
    for (const key of this.#failures.keys()) {
      this.#failures.delete(key);
      if (this.#failures.size < MAX_KEYS * 0.9) return;
    }
  }
}
