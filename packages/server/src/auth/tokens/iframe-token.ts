import type { IframeTokenResponse } from "@lotline/contract";
import type { Config } from "../../config/config.js";
import type { SigningKeys } from "../keys/signing-keys.js";
import { ExpiredTokenError, InvalidTokenError, signJwt, type TokenKind, verifyJwt } from "./jwt.js";

/**
 * The embeddable pages' tokens. Their own `typ` and audience keep them out of the data API, and keep data API
 * tokens out of the pages.
 */
export function iframeTokenKind(config: Config): TokenKind {
  return { typ: "lotline-iframe+jwt", issuer: config.publicUrl, audience: `${config.publicUrl}/embed` };
}

/**
 * An iframe token for the organization. `iframeKeyId`, the key it was signed in with, goes into the `ikid` claim so
 * that revoking the key ends the session; the sign-in always gives it.
 */
export async function issueIframeToken(
  keys: SigningKeys,
  config: Config,
  orgId: string,
  iframeKeyId?: string,
): Promise<IframeTokenResponse> {
  const claims = { org_id: orgId, ...(iframeKeyId === undefined ? {} : { ikid: iframeKeyId }) };
  const { token, expiresAt } = await signJwt(
    keys,
    iframeTokenKind(config),
    orgId,
    claims,
    config.iframeTokenTtlSeconds,
  );
  return { token, expires: new Date(expiresAt * 1000).toISOString() };
}

/** Who an iframe token speaks for, and until when (epoch seconds). */
export interface IframeSession {
  orgId: string;
  expiresAt: number;
  /** The iframe key it was signed in with (`ikid`); absent in tokens issued before tokens named their key. */
  iframeKeyId?: string;
}

/**
 * A genuine iframe token of ours that has expired; `orgId` says whose it was, so `/login` can tell that
 * organization's host page. Still an {@link InvalidTokenError}: every check that refuses tokens refuses it.
 */
export class ExpiredIframeTokenError extends ExpiredTokenError {
  override name = "ExpiredIframeTokenError";

  constructor(
    claims: ExpiredTokenError["claims"],
    readonly orgId: string,
  ) {
    super(claims);
  }
}

/**
 * Throws {@link InvalidTokenError} unless `token` is a live iframe token; returns its organization and expiry.
 * A genuine token whose only fault is its expiry throws {@link ExpiredIframeTokenError}.
 */
export async function verifyIframeToken(keys: SigningKeys, config: Config, token: string): Promise<IframeSession> {
  const payload = await verifyJwt(keys, iframeTokenKind(config), token).catch((error: unknown) => {
    if (error instanceof ExpiredTokenError && typeof error.claims.org_id === "string") {
      throw new ExpiredIframeTokenError(error.claims, error.claims.org_id);
    }
    throw error;
  });
  if (typeof payload.org_id !== "string") throw new InvalidTokenError("the token lacks org_id");
  const { ikid } = payload;
  if (ikid !== undefined && typeof ikid !== "string") throw new InvalidTokenError("the token's ikid is malformed");
  return {
    orgId: payload.org_id,
    expiresAt: payload.exp as number,
    ...(ikid === undefined ? {} : { iframeKeyId: ikid }),
  };
}
