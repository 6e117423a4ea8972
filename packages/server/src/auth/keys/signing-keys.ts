import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from "node:crypto";
import { promisify } from "node:util";
import { calculateJwkThumbprint, exportJWK, type JWK } from "jose";
import type { Kysely } from "kysely";
import type { Schema } from "../../db/schema.js";

const generateRsaKeyPair = promisify(generateKeyPair);

/** A retired key stays in the JWKS this long, well past the 24-hour life of the last token it signed. */
export const RETIRED_KEY_PUBLISHED_MS = 48 * 3600 * 1000;
/** How often a process looks for keys another process rotated in. */
const REFRESH_MS = 60_000;
/**
 * An unknown `kid` triggers a reload at most this often, so forged kids cannot hammer the database. Counted from
 * the last reload an unknown `kid` caused, not from the last load: a key rotated in elsewhere just after this
 * process's periodic reload must still be found at once.
 */
const MISS_RELOAD_MS = 5_000;

/** How stale the published JWK Set may be. */
const JWKS_REFRESH_MS = 5_000;

export const SIGNING_ALGORITHM = "RS256";

interface LoadedKey {
  kid: string;
  publicJwk: JWK;
  publicKey: KeyObject;
  privateKey: KeyObject;
  createdAt: number;
  retiredAt: number | null;
}

/**
 * The RS256 key pairs that sign every token. They live in the database so that all processes of a deployment
 * sign and verify with the same keys; each process caches them and reloads every minute, or sooner when it
 * meets a `kid` it does not know (a key rotated in elsewhere).
 */
export class SigningKeys {
  #keys: LoadedKey[] = [];
  #loadedAt = Number.NEGATIVE_INFINITY;
  #missReloadAt = Number.NEGATIVE_INFINITY;
  #loading: Promise<void> | undefined;
  #creatingFirst: Promise<string> | undefined;

  constructor(private readonly db: Kysely<Schema>) {}

  /** The key to sign with: the newest one not retired. Creates the first key of a new deployment. */
  async signingKey(): Promise<{ kid: string; privateKey: KeyObject }> {
    await this.#fresh(REFRESH_MS);
    let key = this.#keys.find((candidate) => candidate.retiredAt === null);
    if (!key) {
      // Callers arriving together share one new key rather than each rotating in one of their own.
      this.#creatingFirst ??= this.rotate().finally(() => {
        this.#creatingFirst = undefined;
      });
      await this.#creatingFirst;
      key = this.#keys.find((candidate) => candidate.retiredAt === null);
    }
    if (!key) throw new Error("no signing key could be created");
    return key;
  }

  /** The public key for `kid`, if it is still published. */
  async verificationKey(kid: string): Promise<KeyObject | undefined> {
    await this.#fresh(REFRESH_MS);
    let key = this.#keys.find((candidate) => candidate.kid === kid);
    if (!key) {
      await this.#reloadOnMiss();
      key = this.#keys.find((candidate) => candidate.kid === kid);
    }
    return key?.publicKey;
  }

  /**
   * The JWK Set of every published public key (RFC 7517). Fresher than the signing cache: an outside verifier
   * that meets a new `kid` fetches this, perhaps from a process other than the one that rotated.
   */
  async jwks(): Promise<{ keys: JWK[] }> {
    await this.#fresh(JWKS_REFRESH_MS);
    return { keys: this.#keys.map((key) => key.publicJwk) };
  }

  /** Makes a new key the signing key; the previous ones retire but stay published for 48 hours. */
  async rotate(): Promise<string> {
    const { publicKey, privateKey } = await generateRsaKeyPair("rsa", { modulusLength: 2048 });
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable("signing_keys").set({ retired_at: now }).where("retired_at", "is", null).execute();
      await trx
        .insertInto("signing_keys")
        .values({
          kid,
          algorithm: SIGNING_ALGORITHM,
          public_jwk: JSON.stringify({ ...jwk, kid, alg: SIGNING_ALGORITHM, use: "sig" }),
          private_pkcs8: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
          created_at: now,
        })
        .execute();
    });
    await this.#loading; // A load that began before the insert cannot have seen the new key: load again after it.
    await this.#fresh(0);
    return kid;
  }

  /** Reloads for an unknown `kid`, at most once per {@link MISS_RELOAD_MS}; meanwhile waits for a load under way. */
  async #reloadOnMiss(): Promise<void> {
    if (Date.now() - this.#missReloadAt < MISS_RELOAD_MS) {
      await this.#loading;
      return;
    }
    this.#missReloadAt = Date.now();
    await this.#fresh(0);
  }

  /** Reloads from the database when the cache is older than `maxAgeMs`; one load at a time. */
  async #fresh(maxAgeMs: number): Promise<void> {
    if (Date.now() - this.#loadedAt < maxAgeMs) return;
    this.#loading ??= this.#load().finally(() => {
      this.#loading = undefined;
    });
    await this.#loading;
  }

  async #load(): Promise<void> {
    const rows = await this.db
      .selectFrom("signing_keys")
      .selectAll()
      .where((eb) =>
        eb.or([eb("retired_at", "is", null), eb("retired_at", ">", Date.now() - RETIRED_KEY_PUBLISHED_MS)]),
      )
      .orderBy("created_at", "desc")
      .orderBy("kid")
      .execute();
    this.#keys = rows.map((row) => {
      const publicJwk = JSON.parse(row.public_jwk) as JWK;
      return {
        kid: row.kid,
        publicJwk,
        publicKey: createPublicKey({ key: publicJwk as import("node:crypto").JsonWebKey, format: "jwk" }),
        privateKey: createPrivateKey(row.private_pkcs8),
        createdAt: row.created_at,
        retiredAt: row.retired_at,
      };
    });
    this.#loadedAt = Date.now();
  }
}
