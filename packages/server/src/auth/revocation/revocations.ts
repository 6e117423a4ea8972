import type { Kysely } from "kysely";
import type { Schema } from "../../db/schema.js";
import { listClientsRevokedSince } from "../../tenancy/api-clients.js";
import { listIframeKeysRevokedSince } from "../../tenancy/iframe-keys.js";

/**
 * How often a process reloads what was revoked (clients, iframe keys, and its signing keys) by default: a revocation
 * made anywhere takes effect on every process within this time.
 */
export const REVOCATIONS_RELOAD_MS = 30_000;
/** No token lives longer: data API tokens live 24 hours, iframe tokens at most that (`LOTLINE_IFRAME_TOKEN_TTL`). */
const LONGEST_TOKEN_LIFE_MS = 24 * 3600 * 1000;
/** Looked back beyond a token's lifetime, for clock skew between processes and the database. */
const LOOKBACK_MARGIN_MS = 60 * 60 * 1000;

/**
 * This process's view of the revoked data API clients and iframe keys, so the guards need no query per request. It
 * holds what was revoked within the longest token life and a margin (an older revocation cannot have a live token)
 * and reloads at most every `reloadMs`: a revocation made anywhere (e.g. by the CLI) takes effect on every process
 * within that interval.
 */
export class Revocations {
  #clients = new Set<string>();
  #iframeKeys = new Set<string>();
  #loadedAt = Number.NEGATIVE_INFINITY;
  #loading: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly reloadMs = REVOCATIONS_RELOAD_MS,
  ) {}

  async isClientRevoked(clientId: string): Promise<boolean> {
    await this.#current();
    return this.#clients.has(clientId);
  }

  async isIframeKeyRevoked(keyId: string): Promise<boolean> {
    await this.#current();
    return this.#iframeKeys.has(keyId);
  }

  async #current(): Promise<void> {
    if (Date.now() - this.#loadedAt >= this.reloadMs) await this.#reload();
  }

  #reload(): Promise<void> {
    this.#loading ??= (async () => {
      try {
        const now = Date.now();
        const since = now - LONGEST_TOKEN_LIFE_MS - LOOKBACK_MARGIN_MS;
        const clients = await listClientsRevokedSince(this.db, since);
        const iframeKeys = await listIframeKeysRevokedSince(this.db, since);
        this.#clients = new Set(clients);
        this.#iframeKeys = new Set(iframeKeys);
        this.#loadedAt = now;
      } finally {
        this.#loading = undefined;
      }
    })();
    return this.#loading;
  }
}
