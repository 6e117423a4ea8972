import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A new 256-bit secret, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

const ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32: no i, l, o, u to misread.

/** A new identifier such as `org_4f0k9c2m7x1q8z3h`: a prefix and 80 random bits, safe in URLs and Basic auth. */
export function newId(prefix: string): string {
  const bytes = randomBytes(16);
  let id = "";
  for (const byte of bytes) id += ID_ALPHABET[byte & 31];
  return `${prefix}_${id}`;
}

/**
 * Makes and checks keyed SHA-256 digests (HMAC) of secrets, so the database never holds a usable secret.
 * The key is per deployment; see the `instance_settings` table.
 */
export class SecretDigester {
  /** Compared against when the credential's owner does not exist, so both paths cost the same. */
  readonly #decoy: string;

  constructor(private readonly key: Buffer) {
    this.#decoy = this.digest(newSecret());
  }

  digest(secret: string): string {
    return createHmac("sha256", this.key).update(secret, "utf8").digest("base64url");
  }

  /** Constant-time check of `secret` against a stored digest; `undefined` burns the same work and fails. */
  matches(secret: string, digest: string | undefined): boolean {
    const expected = Buffer.from(digest ?? this.#decoy, "base64url");
    const actual = Buffer.from(this.digest(secret), "base64url");
    const same = expected.length === actual.length && timingSafeEqual(expected, actual);
    return same && digest !== undefined;
  }
}
