import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { vi } from "vitest";
import { buildApp } from "../../app.js";
import { openDatabase } from "../../db/database.js";
import { createServices, type ServiceOptions } from "../../services.js";
import { basic, type TestApp, type TestTenant, tokenRequestBody } from "../../test/test-app.js";
import { REVOCATIONS_RELOAD_MS } from "./revocations.js";

// Shared by the revocation tests: processes of one deployment, and what their callers do, over real HTTP.

export interface OtherProcess {
  url: string;
  close(): Promise<void>;
}

/**
 * Another `lotline serve` process of the test app's deployment: its own connection to the same database, its own
 * caches (signing keys, revocations), the same configuration, listening on a loopback port of its own.
 */
export async function otherProcess(test: TestApp, options: ServiceOptions = {}): Promise<OtherProcess> {
  const database = openDatabase(test.testDatabase.url);
  const app: FastifyInstance = await buildApp(await createServices(test.config, database, options));
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** A data API token from the token endpoint at `base`. */
export async function accessTokenAt(base: string, test: TestApp, tenant: TestTenant): Promise<string> {
  const response = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(tokenRequestBody(test, tenant)),
  });
  if (response.status !== 200) throw new Error(`token request failed: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** `POST /auth/signin/integration` at `base` with Basic `orgId:apiKey`. */
export function signIn(base: string, orgId: string, apiKey: string): Promise<Response> {
  return fetch(`${base}/auth/signin/integration`, { method: "POST", headers: { authorization: basic(orgId, apiKey) } });
}

/** An iframe JWT from the sign-in at `base`. */
export async function iframeTokenAt(base: string, orgId: string, apiKey: string): Promise<string> {
  const response = await signIn(base, orgId, apiKey);
  if (response.status !== 200) throw new Error(`sign-in failed: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** `GET /v1/me` with a data API token. */
export function me(base: string, token: string): Promise<Response> {
  return fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
}

/** `GET /embed/api/session` as a page calls it, with its iframe JWT. */
export function pageSession(base: string, token: string): Promise<Response> {
  return fetch(`${base}/embed/api/session`, { headers: { authorization: `Bearer ${token}` } });
}

/** A page request with `jwt`, not following a redirect. */
export function page(base: string, token: string): Promise<Response> {
  return fetch(`${base}/embed/footprint-selection?jwt=${token}`, { redirect: "manual" });
}

/** The kids the JWKS at `base` publishes. */
export async function publishedKids(base: string): Promise<string[]> {
  const response = await fetch(`${base}/.well-known/jwks.json`);
  return ((await response.json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);
}

export const kidOf = (token: string) => decodeProtectedHeader(token).kid;
export const claimsOf = (token: string) => decodeJwt(token);

/**
 * Moves this process's clock (every app of the test runs in it) past the revocation reload interval. The clock
 * only ever moves forward, so caches loaded at a moved time stay in order; `vi.restoreAllMocks()` puts it back.
 */
export function passReloadInterval(): void {
  const now = Date.now();
  vi.spyOn(Date, "now").mockReturnValue(now + REVOCATIONS_RELOAD_MS + 1000);
}
