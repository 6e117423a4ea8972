import {
  type ApiClient,
  createApiClient,
  createTokenProvider,
  type TokenProvider,
  type TokenStore,
} from "@lotline/host-sdk/server";
import { type Env, setting } from "./settings.js";

/**
 * Call once per process and share the result. The provider keeps the data API token and reuses it for its
 * 24 hours; pass a shared `store` (Redis, a table) so that every server of a fleet uses the same token.
 */
export function connectLotline(env: Env, store?: TokenStore): { tokens: TokenProvider; api: ApiClient } {
  const tokens = createTokenProvider({
    tokenUrl: setting(env, "LOTLINE_URL"),
    clientId: setting(env, "LOTLINE_CLIENT_ID"),
    clientSecret: setting(env, "LOTLINE_CLIENT_SECRET"),
    audience: setting(env, "LOTLINE_AUDIENCE"),
    store,
  });
  const api = createApiClient({ baseUrl: setting(env, "LOTLINE_URL"), tokens });
  return { tokens, api };
}
