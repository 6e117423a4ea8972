import { type Static, Type } from "typebox";

/** Body of a successful `POST /oauth/token` (RFC 6749 §5.1). */
export const TokenResponse = Type.Object({
  access_token: Type.String(),
  expires_in: Type.Integer({ description: "Seconds until the token expires: 86400." }),
  token_type: Type.Literal("Bearer"),
});
export type TokenResponse = Static<typeof TokenResponse>;

/** Body of a failed `POST /oauth/token` (RFC 6749 §5.2). */
export const OAuthErrorResponse = Type.Object({
  error: Type.String(),
  error_description: Type.Optional(Type.String()),
});
export type OAuthErrorResponse = Static<typeof OAuthErrorResponse>;

/** Body of a successful `POST /auth/signin/integration`. */
export const IframeTokenResponse = Type.Object({
  token: Type.String({ description: "JWT for the `jwt` query parameter of the embeddable pages." }),
  expires: Type.String({ format: "date-time", description: "ISO 8601 UTC moment the token expires." }),
});
export type IframeTokenResponse = Static<typeof IframeTokenResponse>;
