import type { LightMyRequestResponse } from "fastify";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  basic,
  createTenant,
  createTestApp,
  type TestApp,
  type TestTenant,
  tokenRequestBody,
} from "../../test/test-app.js";

/** RFC 6749 Appendix B: application/x-www-form-urlencoded, spaces as `+`, every other reserved byte escaped. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replaceAll("%20", "+");
}

function form(parameters: Record<string, string>): string {
  return new URLSearchParams(parameters).toString();
}

function expectNoStore(response: LightMyRequestResponse) {
  expect(response.headers["cache-control"]).toBe("no-store");
  expect(response.headers.pragma).toBe("no-cache");
}

function expectOAuthError(response: LightMyRequestResponse, status: number, error: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  const body = response.json();
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe("string");
  expect(body.error_description.length).toBeGreaterThan(0);
  expectNoStore(response);
  return body as { error: string; error_description: string };
}

function expectToken(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  expectNoStore(response);
  const body = response.json();
  expect(body).toEqual({ access_token: expect.any(String), token_type: "Bearer", expires_in: 86400 });
  return body.access_token as string;
}

describe("POST /oauth/token", () => {
  let test: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    test = await createTestApp();
    tenant = await createTenant(test.services);
  });
  afterAll(() => test.close());

  const post = (options: { payload?: unknown; headers?: Record<string, string> }) =>
    test.app.inject({
      method: "POST",
      url: "/oauth/token",
      ...options,
      payload: options.payload as string | object | undefined,
    });

  describe("issuing", () => {
    it("issues a token for a JSON body (client_secret_post)", async () => {
      expectToken(await post({ payload: tokenRequestBody(test, tenant) }));
    });

    it("issues a token for a form body (client_secret_post)", async () => {
      const response = await post({
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: form(tokenRequestBody(test, tenant)),
      });
      expectToken(response);
    });

    it("issues a token for Basic credentials (client_secret_basic)", async () => {
      const response = await post({
        headers: {
          authorization: basic(tenant.clientId, tenant.clientSecret),
          "content-type": "application/x-www-form-urlencoded",
        },
        payload: form({ grant_type: "client_credentials", audience: test.config.apiAudience }),
      });
      expectToken(response);
    });

    it("form-decodes Basic credentials (RFC 6749 Appendix B): an `_` sent as %5F still names the client", async () => {
      expect(tenant.clientId).toContain("_");
      const encodedId = tenant.clientId.replaceAll("_", "%5F");
      const response = await post({
        headers: { authorization: basic(encodedId, formEncode(tenant.clientSecret)) },
        payload: { grant_type: "client_credentials", audience: test.config.apiAudience },
      });
      const token = expectToken(response);
      expect(decodeJwt(token).client_id).toBe(tenant.clientId);
    });

    it("accepts a client_id in the body beside Basic credentials when it names the same client", async () => {
      const response = await post({
        headers: { authorization: basic(tenant.clientId, tenant.clientSecret) },
        payload: { client_id: tenant.clientId, grant_type: "client_credentials", audience: test.config.apiAudience },
      });
      expectToken(response);
    });

    it("signs an RFC 9068 access token with a key published in the JWKS", async () => {
      const token = expectToken(await post({ payload: tokenRequestBody(test, tenant) }));

      const header = decodeProtectedHeader(token);
      expect(header.typ).toBe("at+jwt");
      expect(header.alg).toBe("RS256");
      expect(header.kid).toEqual(expect.any(String));

      const jwks = await test.app.inject({ url: "/.well-known/jwks.json" });
      expect(jwks.statusCode).toBe(200);
      const kids = jwks.json().keys.map((key: { kid: string }) => key.kid);
      expect(kids).toContain(header.kid);

      const claims = decodeJwt(token);
      expect(claims).toMatchObject({
        iss: test.config.publicUrl,
        sub: tenant.clientId,
        aud: test.config.apiAudience,
        client_id: tenant.clientId,
        org_id: tenant.orgId,
      });
      expect(claims.iss).toBe("http://lotline.test");
      expect(typeof claims.iat).toBe("number");
      const now = Math.floor(Date.now() / 1000);
      expect(Math.abs((claims.iat ?? 0) - now)).toBeLessThanOrEqual(5);
      expect(claims.exp).toBe((claims.iat ?? 0) + 86400);
      expect(claims.jti).toEqual(expect.any(String));
    });

    it("gives each token its own jti", async () => {
      const first = decodeJwt(expectToken(await post({ payload: tokenRequestBody(test, tenant) })));
      const second = decodeJwt(expectToken(await post({ payload: tokenRequestBody(test, tenant) })));
      expect(first.jti).toEqual(expect.any(String));
      expect(second.jti).not.toBe(first.jti);
    });

    it("issues a token the data API accepts", async () => {
      const token = expectToken(await post({ payload: tokenRequestBody(test, tenant) }));
      const response = await test.app.inject({ url: "/v1/me", headers: { authorization: `Bearer ${token}` } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ org_id: tenant.orgId, client_id: tenant.clientId });
    });
  });

  describe("client authentication", () => {
    it("refuses Basic credentials together with a client_secret in the body", async () => {
      const response = await post({
        headers: { authorization: basic(tenant.clientId, tenant.clientSecret) },
        payload: tokenRequestBody(test, tenant),
      });
      expectOAuthError(response, 400, "invalid_request");
    });

    it("refuses Basic credentials with a different client_id in the body", async () => {
      const other = await createTenant(test.services, "Other Mutual");
      const response = await post({
        headers: { authorization: basic(tenant.clientId, tenant.clientSecret) },
        payload: { client_id: other.clientId, grant_type: "client_credentials", audience: test.config.apiAudience },
      });
      expectOAuthError(response, 400, "invalid_request");
    });

    it("refuses malformed Basic credentials as an invalid request", async () => {
      const response = await post({
        headers: { authorization: "Basic not-base64!" },
        payload: { grant_type: "client_credentials", audience: test.config.apiAudience },
      });
      expectOAuthError(response, 400, "invalid_request");
    });

    it("answers 401 invalid_client with a challenge when no client authentication is given", async () => {
      const response = await post({
        payload: { grant_type: "client_credentials", audience: test.config.apiAudience },
      });
      expectOAuthError(response, 401, "invalid_client");
      expect(response.headers["www-authenticate"]).toMatch(/^Basic /);
    });

    it("answers 401 invalid_client for a client_id without a secret", async () => {
      const { client_secret: _secret, ...withoutSecret } = tokenRequestBody(test, tenant);
      const response = await post({ payload: withoutSecret });
      expectOAuthError(response, 401, "invalid_client");
    });

    it("answers an unknown client and a wrong secret alike, so neither can be told apart", async () => {
      const unknown = await post({
        payload: { ...tokenRequestBody(test, tenant), client_id: "cl_0000000000000000" },
      });
      const wrongSecret = await post({
        payload: { ...tokenRequestBody(test, tenant), client_secret: "A".repeat(43) },
      });
      const unknownBody = expectOAuthError(unknown, 401, "invalid_client");
      const wrongBody = expectOAuthError(wrongSecret, 401, "invalid_client");
      expect(wrongBody).toEqual(unknownBody);
      expect(unknown.headers["www-authenticate"]).toMatch(/^Basic realm="lotline"/);
      expect(wrongSecret.headers["www-authenticate"]).toBe(unknown.headers["www-authenticate"]);
    });

    it("refuses a wrong secret sent by Basic with 401 invalid_client", async () => {
      const response = await post({
        headers: { authorization: basic(tenant.clientId, "A".repeat(43)) },
        payload: { grant_type: "client_credentials", audience: test.config.apiAudience },
      });
      expectOAuthError(response, 401, "invalid_client");
      expect(response.headers["www-authenticate"]).toMatch(/^Basic /);
    });
  });

  describe("grant and audience", () => {
    it("requires grant_type", async () => {
      const { grant_type: _grant, ...withoutGrant } = tokenRequestBody(test, tenant);
      const body = expectOAuthError(await post({ payload: withoutGrant }), 400, "invalid_request");
      expect(body.error_description).toContain("grant_type");
    });

    it("treats an empty grant_type as missing", async () => {
      const response = await post({ payload: { ...tokenRequestBody(test, tenant), grant_type: "" } });
      expectOAuthError(response, 400, "invalid_request");
    });

    it("refuses grant types other than client_credentials", async () => {
      const response = await post({ payload: { ...tokenRequestBody(test, tenant), grant_type: "password" } });
      const body = expectOAuthError(response, 400, "unsupported_grant_type");
      expect(body.error_description).toContain("client_credentials");
    });

    it("requires the audience, naming the one to ask for", async () => {
      const { audience: _audience, ...withoutAudience } = tokenRequestBody(test, tenant);
      const body = expectOAuthError(await post({ payload: withoutAudience }), 400, "invalid_request");
      expect(body.error_description).toContain(test.config.apiAudience);
    });

    it("refuses an unknown audience with a 4xx OAuth error naming the audience it would accept", async () => {
      const response = await post({
        payload: { ...tokenRequestBody(test, tenant), audience: "https://elsewhere.example/api" },
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      const body = expectOAuthError(response, response.statusCode, "invalid_target");
      expect(body.error_description).toBe(
        `unknown audience "https://elsewhere.example/api"; this service issues tokens for "${test.config.apiAudience}"`,
      );
    });
  });

  describe("request format", () => {
    it("refuses a form parameter sent twice", async () => {
      const payload = `${form(tokenRequestBody(test, tenant))}&audience=${encodeURIComponent(test.config.apiAudience)}`;
      const response = await post({ headers: { "content-type": "application/x-www-form-urlencoded" }, payload });
      const body = expectOAuthError(response, 400, "invalid_request");
      expect(body.error_description).toContain("audience");
    });

    it("refuses a JSON value that is not a string", async () => {
      const response = await post({ payload: { ...tokenRequestBody(test, tenant), audience: 42 } });
      const body = expectOAuthError(response, 400, "invalid_request");
      expect(body.error_description).toContain("audience");
    });

    it("refuses a JSON array given as a parameter's value", async () => {
      const response = await post({
        payload: { ...tokenRequestBody(test, tenant), audience: [test.config.apiAudience] },
      });
      expectOAuthError(response, 400, "invalid_request");
    });

    it("refuses a JSON body that is not an object", async () => {
      const response = await post({
        headers: { "content-type": "application/json" },
        payload: JSON.stringify([tokenRequestBody(test, tenant)]),
      });
      expectOAuthError(response, 400, "invalid_request");
    });

    it("answers malformed JSON in OAuth's format", async () => {
      const response = await post({ headers: { "content-type": "application/json" }, payload: "{not json" });
      expectOAuthError(response, 400, "invalid_request");
    });

    it("answers a text/plain body with 400 invalid_request in OAuth's format", async () => {
      const response = await post({
        headers: { "content-type": "text/plain" },
        payload: form(tokenRequestBody(test, tenant)),
      });
      expectOAuthError(response, 400, "invalid_request");
    });

    it("answers an unsupported media type with 400 invalid_request in OAuth's format", async () => {
      const response = await post({ headers: { "content-type": "application/xml" }, payload: "<token/>" });
      expectOAuthError(response, 400, "invalid_request");
    });

    for (const method of ["GET", "PUT", "DELETE"] as const) {
      it(`answers ${method} with 405 and Allow: POST`, async () => {
        const response = await test.app.inject({ method, url: "/oauth/token" });
        expectOAuthError(response, 405, "invalid_request");
        expect(response.headers.allow).toBe("POST");
      });
    }
  });
});

describe("token endpoint metadata", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(() => test.close());

  it("publishes only the public members of its RSA keys", async () => {
    const tenant = await createTenant(test.services);
    const token = expectToken(
      await test.app.inject({ method: "POST", url: "/oauth/token", payload: tokenRequestBody(test, tenant) }),
    );
    const response = await test.app.inject({ url: "/.well-known/jwks.json" });
    expect(response.statusCode).toBe(200);
    const { keys } = response.json();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig", kid: expect.any(String) });
      expect(key.n).toEqual(expect.any(String));
      expect(key.e).toEqual(expect.any(String));
      for (const member of ["d", "p", "q", "dp", "dq", "qi"]) expect(key).not.toHaveProperty(member);
    }
    expect(keys.map((key: { kid: string }) => key.kid)).toContain(decodeProtectedHeader(token).kid);
  });

  it("describes the authorization server (RFC 8414)", async () => {
    const response = await test.app.inject({ url: "/.well-known/oauth-authorization-server" });
    expect(response.statusCode).toBe(200);
    const metadata = response.json();
    expect(metadata.issuer).toBe(test.config.publicUrl);
    expect(metadata.token_endpoint).toBe(`${test.config.publicUrl}/oauth/token`);
    expect(metadata.jwks_uri).toBe(`${test.config.publicUrl}/.well-known/jwks.json`);
    expect(metadata.grant_types_supported).toContain("client_credentials");
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(["client_secret_basic", "client_secret_post"]),
    );
  });
});
