import { ACCESS_TOKEN_TTL_SECONDS } from "@lotline/contract";
import type { Kysely } from "kysely";
import type { Schema } from "../../db/schema.js";
import { listClientsRevokedSince } from "../../tenancy/api-clients.js";

/** How often a process reloads the revoked clients by default: a revocation takes effect within this time. */
export const REVOKED_CLIENTS_RELOAD_MS = 30_000;
/** Looked back beyond a token's lifetime, for clock skew between processes and the database. */
const LOOKBACK_MARGIN_MS = 60 * 60 * 1000;

/**
 * This process's view of the revoked data API clients, so the bearer guard needs no query per request. It holds
 * the clients revoked within the last 24 hours and a margin (an older revocation cannot have a live token, as
 * tokens live 24 hours) and reloads them at most every `reloadMs`: a revocation made anywhere (e.g. by the CLI)
 * takes effect on every process within that interval.
 */
export class RevokedClients {
  #ids = new Set<string>();
  #loadedAt = Number.NEGATIVE_INFINITY;
  #loading: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly reloadMs = REVOKED_CLIENTS_RELOAD_MS,
  ) {}

  async isRevoked(clientId: string): Promise<boolean> {
    if (Date.now() - this.#loadedAt >= this.reloadMs) await this.#reload();
    return this.#ids.has(clientId);
  }

  #reload(): Promise<void> {
    this.#loading ??= (async () => {
      try {
        const now = Date.now();
        const ids = await listClientsRevokedSince(this.db, now - ACCESS_TOKEN_TTL_SECONDS * 1000 - LOOKBACK_MARGIN_MS);
        this.#ids = new Set(ids);
        this.#loadedAt = now;
      } finally {
        this.#loading = undefined;
      }
    })();
    return this.#loading;
  }
}
