import type { IframeTokenResponse } from "@lotline/contract";
import type { Config } from "../../config/config.js";
import type { SigningKeys } from "../keys/signing-keys.js";
import { InvalidTokenError, signJwt, type TokenKind, verifyJwt } from "./jwt.js";

/**
 * The embeddable pages' tokens. Their own `typ` and audience keep them out of the data API, and keep data API
 * tokens out of the pages.
 */
export function iframeTokenKind(config: Config): TokenKind {
  return { typ: "lotline-iframe+jwt", issuer: config.publicUrl, audience: `${config.publicUrl}/embed` };
}

export async function issueIframeToken(keys: SigningKeys, config: Config, orgId: string): Promise<IframeTokenResponse> {
  const { token, expiresAt } = await signJwt(
    keys,
    iframeTokenKind(config),
    orgId,
    { org_id: orgId },
    config.iframeTokenTtlSeconds,
  );
  return { token, expires: new Date(expiresAt * 1000).toISOString() };
}

/** Who an iframe token speaks for, and until when (epoch seconds). */
export interface IframeSession {
  orgId: string;
  expiresAt: number;
}

/** Throws {@link InvalidTokenError} unless `token` is a live iframe token; returns its organization and expiry. */
export async function verifyIframeToken(keys: SigningKeys, config: Config, token: string): Promise<IframeSession> {
  const payload = await verifyJwt(keys, iframeTokenKind(config), token);
  if (typeof payload.org_id !== "string") throw new InvalidTokenError("the token lacks org_id");
  return { orgId: payload.org_id, expiresAt: payload.exp as number };
}
