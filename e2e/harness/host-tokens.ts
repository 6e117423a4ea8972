import type { Route } from "playwright-core";
import { iframeTokenKind } from "../../packages/server/src/auth/tokens/iframe-token.js";
import { signJwt } from "../../packages/server/src/auth/tokens/jwt.js";
import type { E2eEnvironment } from "./e2e-environment.js";
import type { HostPage } from "./host-page.js";

/** What the demo core system's `POST /token` answers. */
export interface HostTokenBody {
  token: string;
  expires: string;
  expires_in: number;
}

/**
 * An iframe token of the tenant, signed by Lotline, that lives `seconds` (negative: expired that long ago).
 * `expires_in` is what the host is told: by default the true lifetime; `claimedSeconds` makes the host believe
 * a token is good for longer than it is (a token that expired in transit, or a clock gone wrong).
 */
export async function tokenLasting(
  env: E2eEnvironment,
  seconds: number,
  claimedSeconds: number = seconds,
): Promise<HostTokenBody> {
  const { keys, config } = env.lotline.test.services;
  const orgId = env.tenant.orgId;
  const { token, expiresAt } = await signJwt(keys, iframeTokenKind(config), orgId, { org_id: orgId }, seconds);
  return { token, expires: new Date(expiresAt * 1000).toISOString(), expires_in: claimedSeconds };
}

/** The host's next `POST /token` answers `body` instead of signing in, as if Lotline had issued it. */
export async function nextTokenIs(host: HostPage, body: HostTokenBody): Promise<void> {
  await host.page.route(
    `${host.hostUrl}/token`,
    (route: Route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(body) }),
    { times: 1 },
  );
}

/** From now on the host's `POST /token` fails (503), as if Lotline could not be reached. */
export async function tokensFail(host: HostPage): Promise<void> {
  await host.page.route(`${host.hostUrl}/token`, (route: Route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: '{"message":"Lotline is unreachable"}' }),
  );
}
