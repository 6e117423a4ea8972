import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from "node:crypto";
import { promisify } from "node:util";
import type { JWK } from "jose";
import type { Kysely } from "kysely";
import type { Schema } from "../../db/schema.js";
import { NotFoundError } from "../../errors.js";
import { REVOCATIONS_RELOAD_MS } from "../revocation/revocations.js";

const generateRsaKeyPair = promisify(generateKeyPair);

/** A retired key stays in the JWKS this long, well past the 24-hour life of the last token it signed. */
export const RETIRED_KEY_PUBLISHED_MS = 48 * 3600 * 1000;
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

export interface RevokedSigningKey {
  kid: string;
  /** Epoch milliseconds. */
  revokedAt: number;
  /** The key that signs from now on. */
  signingKid: string;
  /** Whether the revoked key was the signing key, so that a new one was created to take over. */
  replaced: boolean;
}

/**
 * The RS256 key pairs that sign every token. They live in the database so that all processes of a deployment
 * sign and verify with the same keys. Each process caches them and reloads every `reloadMs` (30 s: a key revoked
 * elsewhere stops verifying within that), or sooner when it meets a `kid` it does not know (a key rotated in
 * elsewhere). Signing never waits for a reload: see {@link SigningKeys.signingKey}.
 */
export class SigningKeys {
  #keys: LoadedKey[] = [];
  #loadedAt = Number.NEGATIVE_INFINITY;
  #missReloadAt = Number.NEGATIVE_INFINITY;
  #loading: Promise<void> | undefined;
  #creatingFirst: Promise<string> | undefined;
  #checking: Promise<void> | undefined;
  #nextCheck: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly reloadMs = REVOCATIONS_RELOAD_MS,
  ) {}

  /**
   * The key to sign with: the newest one not retired in the database, whichever process rotated it in, so that
   * after `lotline keys rotate` the next token of every process has the new `kid`. A warm cache costs one
   * single-row query, shared by the signers that arrive together (beside the queries the token and sign-in endpoints
   * make anyway), and is reloaded only when that names another key. Creates the first key of a new deployment.
   */
  async signingKey(): Promise<{ kid: string; privateKey: KeyObject }> {
    await this.#followNewestSigner();
    let key = this.#signer();
    if (!key) {
      // Callers arriving together share one new key rather than each rotating in one of their own.
      this.#creatingFirst ??= this.rotate().finally(() => {
        this.#creatingFirst = undefined;
      });
      await this.#creatingFirst;
      key = this.#signer();
    }
    if (!key) throw new Error("no signing key could be created");
    return key;
  }

  /** The public key for `kid`, if it is still published. */
  async verificationKey(kid: string): Promise<KeyObject | undefined> {
    await this.#fresh(this.reloadMs);
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
    const key = await newKeyPair();
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable("signing_keys").set({ retired_at: now }).where("retired_at", "is", null).execute();
      await trx
        .insertInto("signing_keys")
        .values({ ...key, created_at: now })
        .execute();
    });
    await this.#reloadAfterChange();
    return key.kid;
  }

  /**
   * Emergency revocation: deletes the key pair, so it leaves the JWKS and every token it signed stops verifying
   * (here at once, on every other process at its next reload, within `reloadMs`). A compromised private key should
   * stay nowhere, and nothing needs it afterwards. When it was the signing key, a new key takes over in the same
   * transaction, so the deployment is never left without one. Throws {@link NotFoundError} for an unknown `kid`.
   */
  async revoke(kid: string): Promise<RevokedSigningKey> {
    // Made before the transaction, which then stays short; unused when a signing key remains.
    const replacement = await newKeyPair();
    const revokedAt = Date.now();
    const outcome = await this.db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom("signing_keys").select("kid").where("kid", "=", kid).executeTakeFirst();
      if (!found) throw new NotFoundError("signing_key_not_found", `no signing key ${kid}`);
      await trx.deleteFrom("signing_keys").where("kid", "=", kid).execute();
      const signer = await newestSigner(trx);
      if (signer) return { signingKid: signer.kid, replaced: false };
      await trx
        .insertInto("signing_keys")
        .values({ ...replacement, created_at: revokedAt })
        .execute();
      return { signingKid: replacement.kid, replaced: true };
    });
    await this.#reloadAfterChange();
    return { kid, revokedAt, ...outcome };
  }

  /** The cached key to sign with: the newest one not retired (the cache is ordered newest first). */
  #signer(): LoadedKey | undefined {
    return this.#keys.find((candidate) => candidate.retiredAt === null);
  }

  /** Brings the cache up to date with the database's newest signing key; see {@link SigningKeys.signingKey}. */
  async #followNewestSigner(): Promise<void> {
    // Only a load or a check begun after this caller asked can see a rotation committed just before: a load already
    // under way may have begun earlier, so then the check decides.
    if (Date.now() - this.#loadedAt >= this.reloadMs && !this.#loading) return this.#fresh(this.reloadMs);
    return this.#checkNewestSigner();
  }

  /**
   * One check in flight at a time; callers arriving meanwhile share the next one, which starts when it ends. A
   * caller never relies on a check begun before it asked (a rotation may have committed in between), yet under
   * load many tokens share one query: every query waits its turn for SQLite's one connection.
   */
  #checkNewestSigner(): Promise<void> {
    if (!this.#checking) {
      this.#checking = this.#compareNewestSigner().finally(() => {
        this.#checking = undefined;
      });
      return this.#checking;
    }
    this.#nextCheck ??= this.#checking
      .catch(() => {})
      .then(() => {
        this.#nextCheck = undefined;
        return this.#checkNewestSigner();
      });
    return this.#nextCheck;
  }

  async #compareNewestSigner(): Promise<void> {
    const newest = await newestSigner(this.db);
    await this.#loading; // Compared with what a load under way is about to give, not with what it replaces.
    if (newest?.kid !== this.#signer()?.kid) await this.#reloadAfterChange();
  }

  /** Loads again after a change to the table: a load under way may have begun before it, so it is waited for first. */
  async #reloadAfterChange(): Promise<void> {
    await this.#loading;
    await this.#fresh(0);
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

/** The newest key not retired, as {@link SigningKeys} orders its cache. */
function newestSigner(db: Kysely<Schema>): Promise<{ kid: string } | undefined> {
  return db
    .selectFrom("signing_keys")
    .select("kid")
    .where("retired_at", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("kid")
    .limit(1)
    .executeTakeFirst();
}

/** A new RS256 key pair as a `signing_keys` row (without its creation time); its `kid` is the JWK thumbprint. */
async function newKeyPair() {
  // Loaded here, where a key is made: every command builds these services, and most never sign.
  const { calculateJwkThumbprint, exportJWK } = await import("jose");
  const { publicKey, privateKey } = await generateRsaKeyPair("rsa", { modulusLength: 2048 });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return {
    kid,
    algorithm: SIGNING_ALGORITHM,
    public_jwk: JSON.stringify({ ...jwk, kid, alg: SIGNING_ALGORITHM, use: "sig" }),
    private_pkcs8: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    retired_at: null,
  };
}
