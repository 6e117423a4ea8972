import { createPrivateKey, createPublicKey } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { decodeProtectedHeader, exportJWK, type JWK, jwtVerify } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../app.js";
import {
  accessTokenFor,
  basic,
  createTenant,
  createTestApp,
  type TestApp,
  type TestTenant,
} from "../../test/test-app.js";
import { SigningKeys } from "./signing-keys.js";

const HOUR_MS = 3600 * 1000;

const kidOf = (token: string) => decodeProtectedHeader(token).kid;

describe("signing keys", () => {
  let test: TestApp;
  let tenant: TestTenant;
  const otherApps: FastifyInstance[] = [];
  beforeAll(async () => {
    test = await createTestApp();
    tenant = await createTenant(test.services);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    for (const app of otherApps) await app.close();
    await test.close();
  });

  /** Another process of the same deployment: the same database, its own key cache. */
  async function secondProcess(): Promise<FastifyInstance> {
    const app = await buildApp({ ...test.services, keys: new SigningKeys(test.services.db) });
    otherApps.push(app);
    return app;
  }

  const publishedKids = async (app: FastifyInstance) =>
    ((await app.inject({ url: "/.well-known/jwks.json" })).json().keys as JWK[]).map((key) => key.kid);

  const me = (app: FastifyInstance, token: string) =>
    app.inject({ url: "/v1/me", headers: { authorization: `Bearer ${token}` } });

  async function expectAccepted(app: FastifyInstance, token: string) {
    const response = await me(app, token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ org_id: tenant.orgId, client_id: tenant.clientId });
  }

  async function expectRefused(app: FastifyInstance, token: string) {
    const response = await me(app, token);
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toContain('error="invalid_token"');
  }

  it("keeps the keys in the signing_keys table, where the signer's private key and the published key live", async () => {
    const token = await accessTokenFor(test, tenant);
    const kid = kidOf(token);
    expect(kid).toBeTruthy();
    const row = await test.services.db
      .selectFrom("signing_keys")
      .selectAll()
      .where("kid", "=", kid ?? "")
      .executeTakeFirstOrThrow();
    expect(row.algorithm).toBe("RS256");
    expect(row.retired_at).toBeNull();

    const stored = createPublicKey(createPrivateKey(row.private_pkcs8));
    const { payload } = await jwtVerify(token, stored, { algorithms: ["RS256"] });
    expect(payload.org_id).toBe(tenant.orgId);

    const jwks = (await test.app.inject({ url: "/.well-known/jwks.json" })).json().keys as JWK[];
    expect(jwks.find((key) => key.kid === kid)).toEqual(JSON.parse(row.public_jwk));
  });

  it("never publishes private key material in the JWKS", async () => {
    await test.services.keys.rotate();
    const response = await test.app.inject({ url: "/.well-known/jwks.json" });
    expect(response.statusCode).toBe(200);
    const keys = response.json().keys as JWK[];
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const key of keys) {
      expect(key).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
      for (const member of ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]) expect(key).not.toHaveProperty(member);
    }
    const rows = await test.services.db.selectFrom("signing_keys").select("private_pkcs8").execute();
    for (const row of rows) {
      const { d } = await exportJWK(createPrivateKey(row.private_pkcs8));
      expect(d).toBeTruthy();
      expect(response.body).not.toContain(d);
    }
    expect(response.body).not.toContain("PRIVATE KEY");
  });

  it("rotates to a new signing kid while the previous key stays published and its tokens keep working", async () => {
    const before = await accessTokenFor(test, tenant);
    const previousKid = kidOf(before);

    const newKid = await test.services.keys.rotate();
    expect(newKid).not.toBe(previousKid);
    const after = await accessTokenFor(test, tenant);
    expect(kidOf(after)).toBe(newKid);

    const published = await publishedKids(test.app);
    expect(published).toContain(previousKid);
    expect(published).toContain(newKid);
    await expectAccepted(test.app, before);
    await expectAccepted(test.app, after);

    const signin = await test.app.inject({
      method: "POST",
      url: "/auth/signin/integration",
      headers: { authorization: basic(tenant.orgId, tenant.iframeKey) },
    });
    expect(kidOf(signin.json().token)).toBe(newKid);
  });

  it("lets another process verify a token signed right after this one rotated", async () => {
    const other = await secondProcess();
    const before = await accessTokenFor(test, tenant);
    // The other process has its keys loaded and in use before the rotation.
    await expectAccepted(other, before);

    const newKid = await test.services.keys.rotate();
    const after = await accessTokenFor(test, tenant);
    expect(kidOf(after)).toBe(newKid);
    // Several requests at once with the new kid: none may be refused while the reload is under way.
    const responses = await Promise.all(Array.from({ length: 5 }, () => me(other, after)));
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
    await expectAccepted(other, after);
    await expectAccepted(other, before);
  });

  it("does not reload from the database for every token with a made-up kid", async () => {
    let keyQueries = 0;
    const db = test.services.db;
    const counting = new Proxy(db, {
      get(target, property) {
        if (property === "selectFrom") keyQueries += 1;
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const { kid } = await test.services.keys.signingKey();
    const keys = new SigningKeys(counting);
    expect((await keys.signingKey()).kid).toBe(kid);
    expect(keyQueries).toBe(1);
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect(await keys.verificationKey(`forged-${attempt}`)).toBeUndefined();
    }
    expect(keyQueries).toBe(2);
    expect(await keys.verificationKey(kid)).toBeDefined();
  });

  it("checks for a newer signing key once per batch of signers arriving together, not once per token", async () => {
    let keyQueries = 0;
    const db = test.services.db;
    const counting = new Proxy(db, {
      get(target, property) {
        if (property === "selectFrom") keyQueries += 1;
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const keys = new SigningKeys(counting);
    const { kid } = await keys.signingKey();
    keyQueries = 0;
    const signers = await Promise.all(Array.from({ length: 20 }, () => keys.signingKey()));
    expect(signers.map((signer) => signer.kid)).toEqual(Array(20).fill(kid));
    // The first caller's check, then one that every later caller shares: none relies on a check begun before it asked.
    expect(keyQueries).toBe(2);

    const newKid = await new SigningKeys(db).rotate();
    expect((await keys.signingKey()).kid).toBe(newKid);
  });

  it("has a process that loads its keys after a rotation elsewhere verify and sign with the new key", async () => {
    const newKid = await test.services.keys.rotate();
    const token = await accessTokenFor(test, tenant);
    expect(kidOf(token)).toBe(newKid);
    const keys = new SigningKeys(test.services.db);
    expect(await keys.verificationKey(newKid)).toBeDefined();
    expect((await keys.signingKey()).kid).toBe(newKid);
  });

  it("drops a key retired more than 48 hours ago from the JWKS and refuses its tokens", async () => {
    const old = await accessTokenFor(test, tenant);
    const oldKid = kidOf(old) ?? "";
    await test.services.keys.rotate();
    const current = await accessTokenFor(test, tenant);
    const retire = (hoursAgo: number) =>
      test.services.db
        .updateTable("signing_keys")
        .set({ retired_at: Date.now() - hoursAgo * HOUR_MS })
        .where("kid", "=", oldKid)
        .execute();

    await retire(47);
    const within = await secondProcess();
    expect(await publishedKids(within)).toContain(oldKid);
    await expectAccepted(within, old);

    await retire(49);
    const past = await secondProcess();
    expect(await publishedKids(past)).not.toContain(oldKid);
    await expectRefused(past, old);
    await expectAccepted(past, current);

    // The running process drops it too once it reloads its keys (at most a minute later).
    vi.setSystemTime(Date.now() + 61_000);
    expect(await publishedKids(test.app)).not.toContain(oldKid);
    await expectRefused(test.app, old);
    await expectAccepted(test.app, current);
  });
});
