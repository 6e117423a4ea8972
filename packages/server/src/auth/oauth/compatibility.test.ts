import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import {
  allowInsecureRequests,
  type ClientAuth,
  ClientSecretBasic,
  ClientSecretPost,
  clientCredentialsGrant,
  discovery,
  WWWAuthenticateChallengeError,
} from "openid-client";
import { ClientCredentials } from "simple-oauth2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";

/**
 * Off-the-shelf OAuth clients against the real, listening server: what an insurer's developers will use. Every
 * token they get must verify with the published JWKS and open the data API over real HTTP.
 */
describe("token endpoint compatibility with common OAuth clients", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let issuer: string;
  let audience: string;
  let jwks: ReturnType<typeof createRemoteJWKSet>;

  beforeAll(async () => {
    test = await createTestApp({}, { listen: true });
    tenant = await createTenant(test.services);
    issuer = test.url;
    audience = test.config.apiAudience;
    jwks = createRemoteJWKSet(new URL(`${test.url}/.well-known/jwks.json`));
  });
  afterAll(() => test.close());

  /** Verifies `token` as a resource server would, then uses it on `GET /v1/me` over HTTP. */
  async function expectUsableToken(token: string): Promise<void> {
    const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer, audience, typ: "at+jwt" });
    expect(protectedHeader.alg).toBe("RS256");
    expect(payload).toMatchObject({ sub: tenant.clientId, client_id: tenant.clientId, org_id: tenant.orgId });
    expect(typeof payload.jti).toBe("string");

    const response = await fetch(`${test.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ org_id: tenant.orgId, client_id: tenant.clientId });
  }

  describe("openid-client (RFC 8414 discovery)", () => {
    const discover = (auth: ClientAuth) =>
      discovery(new URL(issuer), tenant.clientId, undefined, auth, {
        execute: [allowInsecureRequests],
        algorithm: "oauth2",
      });

    it("discovers the server's metadata", async () => {
      const config = await discover(ClientSecretPost(tenant.clientSecret));
      const metadata = config.serverMetadata();
      expect(metadata.issuer).toBe(issuer);
      expect(metadata.token_endpoint).toBe(`${issuer}/oauth/token`);
      expect(metadata.jwks_uri).toBe(`${issuer}/.well-known/jwks.json`);
      expect(metadata.grant_types_supported).toEqual(["client_credentials"]);
      expect(metadata.token_endpoint_auth_methods_supported).toEqual(
        expect.arrayContaining(["client_secret_basic", "client_secret_post"]),
      );
    });

    it.each([
      ["client_secret_post", ClientSecretPost],
      ["client_secret_basic", ClientSecretBasic],
    ])("obtains a usable token with %s", async (_method, auth) => {
      const config = await discover(auth(tenant.clientSecret));
      const tokens = await clientCredentialsGrant(config, { audience });
      expect(tokens.token_type).toBe("bearer"); // openid-client lower-cases it
      expect(tokens.expires_in).toBe(86_400);
      expect(tokens.expiresIn()).toBeGreaterThan(86_000);
      await expectUsableToken(tokens.access_token);
    });

    it.each([
      ["client_secret_post", ClientSecretPost],
      ["client_secret_basic", ClientSecretBasic],
    ])("reports invalid_client for a wrong secret with %s", async (_method, auth) => {
      const config = await discover(auth(`${tenant.clientSecret.slice(0, -2)}xx`));
      const error: unknown = await clientCredentialsGrant(config, { audience }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      // The 401 carries `WWW-Authenticate: Basic …` (RFC 6749 §5.2; a MUST for client_secret_basic), and
      // openid-client reports such a challenge before reading the body: the invalid_client code is in the body.
      expect(error).toBeInstanceOf(WWWAuthenticateChallengeError);
      const challenge = error as WWWAuthenticateChallengeError;
      expect(challenge.status).toBe(401);
      expect(challenge.cause).toEqual([{ scheme: "basic", parameters: { realm: "lotline", charset: "UTF-8" } }]);
      expect(await challenge.response.json()).toEqual({
        error: "invalid_client",
        error_description: "client authentication failed",
      });
    });
  });

  describe("simple-oauth2", () => {
    it.each([
      ["header", "form"],
      ["header", "json"],
      ["body", "form"],
      ["body", "json"],
    ] as const)("obtains a usable token with authorizationMethod %s, bodyFormat %s", async (method, format) => {
      const client = new ClientCredentials({
        client: { id: tenant.clientId, secret: tenant.clientSecret },
        auth: { tokenHost: test.url, tokenPath: "/oauth/token" },
        options: { authorizationMethod: method, bodyFormat: format },
      });
      const accessToken = await client.getToken({ audience });
      expect(accessToken.token.token_type).toBe("Bearer");
      expect(accessToken.expired()).toBe(false);
      await expectUsableToken(String(accessToken.token.access_token));
    });
  });

  describe("plain fetch", () => {
    it("obtains a usable token by posting JSON", async () => {
      const response = await fetch(`${test.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          grant_type: "client_credentials",
          client_id: tenant.clientId,
          client_secret: tenant.clientSecret,
          audience,
        }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toMatch(/no-store/);
      const body = (await response.json()) as { access_token: string };
      expect(body).toEqual({ access_token: expect.any(String), expires_in: 86_400, token_type: "Bearer" });
      await expectUsableToken(body.access_token);
    });

    it("signs with a kid published in the JWKS", async () => {
      const response = await fetch(`${test.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: tenant.clientId,
          client_secret: tenant.clientSecret,
          audience,
        }),
      });
      expect(response.status).toBe(200);
      const { access_token: token } = (await response.json()) as { access_token: string };
      const { kid } = decodeProtectedHeader(token);
      const published = (await (await fetch(`${test.url}/.well-known/jwks.json`)).json()) as {
        keys: { kid?: string }[];
      };
      expect(published.keys.map((key) => key.kid)).toContain(kid);
    });
  });
});
