import { ACCESS_TOKEN_TTL_SECONDS } from "@lotline/contract/limits";
import type { Config } from "../../config/config.js";
import type { SigningKeys } from "../keys/signing-keys.js";
import { InvalidTokenError, signJwt, type TokenKind, verifyJwt } from "./jwt.js";

/** The data API's bearer tokens: RFC 9068 JWT access tokens. */
export function accessTokenKind(config: Config): TokenKind {
  return { typ: "at+jwt", issuer: config.publicUrl, audience: config.apiAudience };
}

export interface AccessTokenSubject {
  orgId: string;
  clientId: string;
}

export async function issueAccessToken(keys: SigningKeys, config: Config, subject: AccessTokenSubject) {
  const claims = { client_id: subject.clientId, org_id: subject.orgId };
  const { token } = await signJwt(keys, accessTokenKind(config), subject.clientId, claims, ACCESS_TOKEN_TTL_SECONDS);
  return { access_token: token, expires_in: ACCESS_TOKEN_TTL_SECONDS, token_type: "Bearer" as const };
}

/** Throws {@link InvalidTokenError} unless `token` is a live access token of ours. */
export async function verifyAccessToken(keys: SigningKeys, config: Config, token: string): Promise<AccessTokenSubject> {
  const payload = await verifyJwt(keys, accessTokenKind(config), token);
  if (typeof payload.org_id !== "string" || typeof payload.client_id !== "string") {
    throw new InvalidTokenError("the token lacks org_id or client_id");
  }
  return { orgId: payload.org_id, clientId: payload.client_id };
}
