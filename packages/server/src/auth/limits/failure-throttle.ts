/** Most keys tracked at once; the oldest windows are dropped first past this, so memory stays bounded. */
const MAX_KEYS = 100_000;
/** Keys are cut to this length: real ids are short, and an attacker's megabyte-long id must not cost a megabyte. */
const MAX_KEY_LENGTH = 100;

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Counts failed authentications per key (a client id, an organization id, an IP address) in a fixed window and
 * blocks a key that failed too often until its window ends. Kept in memory: under a guessing attack, writing each
 * failure to the database would be the attack's best lever. Each process counts on its own.
 */
export class FailureThrottle {
  readonly #windows = new Map<string, Window>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `key` may try again when it has used up `limit` failures, else 0. A limit of 0 never blocks. */
  retryAfterSeconds(key: string, limit: number): number {
    const window = this.#current(key.slice(0, MAX_KEY_LENGTH));
    if (limit === 0 || !window || window.failures < limit) return 0;
    return Math.max(1, Math.ceil((window.startedAt + this.windowMs - this.now()) / 1000));
  }

  recordFailure(fullKey: string): void {
    const key = fullKey.slice(0, MAX_KEY_LENGTH);
    const window = this.#current(key);
    if (window) {
      window.failures += 1;
      return;
    }
    if (this.#windows.size >= MAX_KEYS) this.#evictOldest();
    this.#windows.set(key, { startedAt: this.now(), failures: 1 });
  }

  #current(key: string): Window | undefined {
    const window = this.#windows.get(key);
    if (window && this.now() - window.startedAt >= this.windowMs) {
      this.#windows.delete(key);
      return undefined;
    }
    return window;
  }

  #evictOldest(): void {
    // Maps iterate in insertion order, so the first keys are the oldest windows.
    for (const key of this.#windows.keys()) {
      this.#windows.delete(key);
      if (this.#windows.size < MAX_KEYS * 0.9) return;
    }
  }
}
