import { createHmac, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { decodeProtectedHeader, exportJWK, type JWTHeaderParameters, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accessTokenFor,
  basic,
  createTenant,
  createTestApp,
  type TestApp,
  type TestTenant,
} from "../../test/test-app.js";

const b64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

describe("GET /v1/me behind the bearer guard", () => {
  let test: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    test = await createTestApp();
    tenant = await createTenant(test.services);
  });
  afterAll(() => test.close());

  const me = (authorization?: string) =>
    test.app.inject({ url: "/v1/me", headers: authorization === undefined ? {} : { authorization } });

  /** The claims of a valid access token for `tenant`, as the service itself would issue them. */
  function validClaims(): JWTPayload {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: test.config.publicUrl,
      sub: tenant.clientId,
      aud: test.config.apiAudience,
      client_id: tenant.clientId,
      org_id: tenant.orgId,
      iat: now,
      exp: now + 3600,
      jti: crypto.randomUUID(),
    };
  }

  /**
   * Signs a token with the service's own current key unless told otherwise; `header` and `claims` replace the
   * matching parts of a valid token (a value of `undefined` removes the member).
   */
  async function mint({
    header = {},
    claims = {},
    key,
  }: {
    header?: Partial<JWTHeaderParameters>;
    claims?: JWTPayload;
    key?: KeyObject;
  } = {}): Promise<string> {
    const signing = await test.services.keys.signingKey();
    const fullHeader = strip({ alg: "RS256", typ: "at+jwt", kid: signing.kid, ...header }) as JWTHeaderParameters;
    return new SignJWT(strip({ ...validClaims(), ...claims }))
      .setProtectedHeader(fullHeader)
      .sign(key ?? signing.privateKey);
  }

  function strip<T extends object>(value: T): T {
    return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
  }

  /** An unsigned or hand-signed JWT; `sign` receives the signing input `header.payload`. */
  function handMade(header: object, claims: JWTPayload, sign: (input: string) => string): string {
    const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
    return `${input}.${sign(input)}`;
  }

  async function expectInvalidToken(token: string) {
    const response = await me(`Bearer ${token}`);
    expect(response.statusCode).toBe(401);
    const challenge = response.headers["www-authenticate"];
    expect(challenge).toMatch(/^Bearer realm="lotline", /);
    expect(challenge).toContain('error="invalid_token"');
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status: 401, code: "invalid_token" });
    expect(response.body).not.toContain(tenant.orgId);
    return response;
  }

  it("answers with the caller's organization and client for a valid token", async () => {
    const token = await accessTokenFor(test, tenant);
    const response = await me(`Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ org_id: tenant.orgId, client_id: tenant.clientId });
  });

  it("accepts a token minted here with the service's key, so the refusals below are about the one defect each", async () => {
    const response = await me(`Bearer ${await mint()}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ org_id: tenant.orgId, client_id: tenant.clientId });
  });

  it("takes the scheme name in any case", async () => {
    const response = await me(`bearer ${await accessTokenFor(test, tenant)}`);
    expect(response.statusCode).toBe(200);
  });

  describe("without bearer credentials", () => {
    it("challenges a request without credentials, with no error code", async () => {
      const response = await me();
      expect(response.statusCode).toBe(401);
      expect(response.headers["www-authenticate"]).toBe('Bearer realm="lotline"');
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ status: 401, code: "unauthorized", title: "Unauthorized" });
    });

    it("challenges another scheme (Basic) the same way, with no error code", async () => {
      const response = await me(basic(tenant.clientId, tenant.clientSecret));
      expect(response.statusCode).toBe(401);
      expect(response.headers["www-authenticate"]).toBe('Bearer realm="lotline"');
      expect(response.headers["www-authenticate"]).not.toContain("error=");
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    });
  });

  describe("a malformed Authorization header", () => {
    it.each([
      ["the bare scheme", "Bearer"],
      ["the scheme and a space", "Bearer "],
      ["a token with a space inside", "Bearer abc def"],
      ["a token with a comma", "Bearer abc,def"],
      ["a token with a quote", 'Bearer abc"def'],
      ["a token with padding in the middle", "Bearer abc=def"],
    ])("answers 400 invalid_request for %s", async (_name, header) => {
      const response = await me(header);
      expect(response.statusCode).toBe(400);
      const challenge = response.headers["www-authenticate"];
      expect(challenge).toMatch(/^Bearer realm="lotline", /);
      expect(challenge).toContain('error="invalid_request"');
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ status: 400, code: "invalid_request" });
    });
  });

  describe("tokens that fail verification answer 401 invalid_token", () => {
    it("refuses a token that is not a JWT at all", async () => {
      await expectInvalidToken("not-a-jwt");
    });

    it("refuses an expired token", async () => {
      const now = Math.floor(Date.now() / 1000);
      const response = await expectInvalidToken(await mint({ claims: { iat: now - 7200, exp: now - 60 } }));
      expect(response.headers["www-authenticate"]).toContain("expired");
    });

    it("refuses a token whose signature bytes were altered", async () => {
      const token = await mint();
      const [header, payload, signature] = token.split(".") as [string, string, string];
      const bytes = Buffer.from(signature, "base64url");
      bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] ?? 0) ^ 0x01;
      await expectInvalidToken(`${header}.${payload}.${bytes.toString("base64url")}`);
    });

    it("refuses a token whose payload was altered after signing", async () => {
      const token = await mint();
      const [header, , signature] = token.split(".") as [string, string, string];
      const other = await createTenant(test.services, "Other Mutual");
      const forged = b64url(JSON.stringify({ ...validClaims(), org_id: other.orgId, client_id: other.clientId }));
      await expectInvalidToken(`${header}.${forged}.${signature}`);
    });

    it("refuses a token from another issuer", async () => {
      await expectInvalidToken(await mint({ claims: { iss: "https://issuer.example" } }));
    });

    it("refuses a token for another audience", async () => {
      await expectInvalidToken(await mint({ claims: { aud: "https://api.example/v1" } }));
    });

    it("refuses a token of another type (typ JWT) or with no typ", async () => {
      await expectInvalidToken(await mint({ header: { typ: "JWT" } }));
      await expectInvalidToken(await mint({ header: { typ: undefined } }));
    });

    it("refuses a token lacking org_id or client_id", async () => {
      await expectInvalidToken(await mint({ claims: { org_id: undefined } }));
      await expectInvalidToken(await mint({ claims: { client_id: undefined } }));
    });

    it("refuses an unsigned token (alg none)", async () => {
      const { kid } = await test.services.keys.signingKey();
      await expectInvalidToken(handMade({ alg: "none", typ: "at+jwt", kid }, validClaims(), () => ""));
    });

    it("refuses HS256 tokens keyed with the public key's PEM or JWK bytes (key confusion)", async () => {
      const { kid, privateKey } = await test.services.keys.signingKey();
      const publicKey = createPublicKey(privateKey);
      const published = (await test.app.inject({ url: "/.well-known/jwks.json" })).json().keys as { kid: string }[];
      const jwk = published.find((candidate) => candidate.kid === kid);
      expect(jwk).toBeDefined();
      const secrets = [
        publicKey.export({ type: "spki", format: "pem" }).toString(),
        publicKey.export({ type: "pkcs1", format: "pem" }).toString(),
        JSON.stringify(jwk),
      ];
      for (const secret of secrets) {
        const token = handMade({ alg: "HS256", typ: "at+jwt", kid }, validClaims(), (input) =>
          createHmac("sha256", secret).update(input).digest("base64url"),
        );
        await expectInvalidToken(token);
      }
    });

    it("refuses a token signed by a key of its own with a made-up kid", async () => {
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      await expectInvalidToken(await mint({ header: { kid: "made-up-kid" }, key: privateKey }));
    });

    it("refuses a token signed by a foreign key that names the service's kid or embeds its own jwk", async () => {
      const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      await expectInvalidToken(await mint({ key: privateKey }));
      const embedded = await exportJWK(publicKey);
      await expectInvalidToken(await mint({ header: { jwk: embedded }, key: privateKey }));
    });

    it("refuses a token without kid, even when the service's key signed it", async () => {
      const token = await mint({ header: { kid: undefined } });
      expect(decodeProtectedHeader(token).kid).toBeUndefined();
      await expectInvalidToken(token);
    });

    it("refuses the iframe JWT from POST /auth/signin/integration", async () => {
      const signin = await test.app.inject({
        method: "POST",
        url: "/auth/signin/integration",
        headers: { authorization: basic(tenant.orgId, tenant.iframeKey) },
      });
      expect(signin.statusCode).toBe(200);
      await expectInvalidToken(signin.json().token);
    });
  });
});
