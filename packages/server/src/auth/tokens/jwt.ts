import { errors, type JWTPayload, jwtVerify, SignJWT } from "jose";
import { SIGNING_ALGORITHM, type SigningKeys } from "../keys/signing-keys.js";

/** What a token is for: its `typ` header and audience, so one kind can never pass for another. */
export interface TokenKind {
  typ: string;
  issuer: string;
  audience: string;
}

/** Signs `claims` with the current signing key; `iat`, `exp` and `jti` are set here. */
export async function signJwt(
  keys: SigningKeys,
  kind: TokenKind,
  subject: string,
  claims: Record<string, unknown>,
  ttlSeconds: number,
): Promise<{ token: string; expiresAt: number }> {
  const { kid, privateKey } = await keys.signingKey();
  const issuedAt = Math.floor(Date.now() / 1000);
  const expiresAt = issuedAt + ttlSeconds;
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, typ: kind.typ, kid })
    .setIssuer(kind.issuer)
    .setSubject(subject)
    .setAudience(kind.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setJti(crypto.randomUUID())
    .sign(privateKey);
  return { token, expiresAt };
}

/** Why a token was refused, in words safe to show its bearer. */
export class InvalidTokenError extends Error {
  override name = "InvalidTokenError";
}

/**
 * A token whose one fault is its age: its signature, algorithm, `typ`, issuer and audience were all accepted
 * (jose checks those before the expiry), so its claims are genuine and say whom it was for.
 */
export class ExpiredTokenError extends InvalidTokenError {
  override name = "ExpiredTokenError";

  constructor(readonly claims: JWTPayload) {
    super("the token has expired");
  }
}

/**
 * Verifies signature, algorithm (RS256 only: `none` and HMAC-with-the-public-key are refused), `typ`, issuer,
 * audience and lifetime. Throws {@link InvalidTokenError}; {@link ExpiredTokenError} when only the lifetime is
 * wrong.
 */
export async function verifyJwt(keys: SigningKeys, kind: TokenKind, token: string): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        const key = header.kid === undefined ? undefined : await keys.verificationKey(header.kid);
        if (!key) throw new InvalidTokenError("the token's signing key is unknown");
        return key;
      },
      {
        algorithms: [SIGNING_ALGORITHM],
        typ: kind.typ,
        issuer: kind.issuer,
        audience: kind.audience,
        requiredClaims: ["iss", "sub", "aud", "exp", "iat", "jti"],
        clockTolerance: 5,
      },
    );
    return payload;
  } catch (error) {
    // Only the `exp` check throws JWTExpired here (no maxTokenAge is set), and jose runs it after every other.
    if (error instanceof errors.JWTExpired && error.claim === "exp") throw new ExpiredTokenError(error.payload);
    throw new InvalidTokenError(describe(error));
  }
}

function describe(error: unknown): string {
  if (error instanceof InvalidTokenError) return error.message;
  if (error instanceof errors.JWTExpired) return "the token has expired";
  if (error instanceof errors.JWTClaimValidationFailed) return `the token's ${error.claim} claim is not accepted`;
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token's algorithm is not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature is invalid";
  return "the token is malformed";
}
