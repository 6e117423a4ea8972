import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schema } from "../db/schema.js";
import { DomainError, InvalidInputError, NotFoundError } from "../errors.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import { createApiClient, findActiveApiClient } from "./api-clients.js";
import {
  addCallbackPrefix,
  listCallbackPrefixes,
  normalizeCallbackPrefix,
  removeCallbackPrefix,
} from "./callback-prefixes.js";
import { addHostOrigin, listHostOrigins, normalizeOrigin, removeHostOrigin } from "./host-origins.js";
import { createIframeKey, verifyIframeKey } from "./iframe-keys.js";
import {
  createOrganization,
  findOrganization,
  findOrganizationByName,
  findWebhookSecret,
  requireOrganization,
} from "./organizations.js";
import { newId, newSecret, SecretDigester } from "./secrets.js";

/** The domain error `work` fails with; fails the test if it succeeds. */
async function domainError(work: () => unknown): Promise<DomainError> {
  try {
    await work();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error("expected a domain error");
}

let testDatabase: TestDatabase;
let db: Kysely<Schema>;
const digester = new SecretDigester(randomBytes(32));

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  db = testDatabase.database.db;
});
afterAll(() => testDatabase.destroy());

describe("secrets and ids", () => {
  it("makes 256-bit base64url secrets, each different", () => {
    const secrets = new Set(Array.from({ length: 100 }, () => newSecret()));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) {
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret, "base64url")).toHaveLength(32);
    }
  });

  it("makes ids with the prefix and no colon, safe as a Basic auth user name", () => {
    const ids = Array.from({ length: 200 }, () => newId("org"));
    expect(new Set(ids).size).toBe(200);
    for (const id of ids) {
      expect(id).toMatch(/^org_[0-9a-z]{16}$/);
      expect(id).not.toContain(":");
    }
  });

  it("matches a digest only with the secret it was made from", () => {
    const secret = newSecret();
    const digest = digester.digest(secret);
    expect(digest).not.toContain(secret);
    expect(digester.matches(secret, digest)).toBe(true);
    expect(digester.matches(newSecret(), digest)).toBe(false);
    expect(digester.matches(`${secret} `, digest)).toBe(false);
    expect(digester.matches("", digest)).toBe(false);
  });

  it("never matches an undefined digest (an owner that does not exist)", () => {
    expect(digester.matches(newSecret(), undefined)).toBe(false);
    expect(digester.matches("", undefined)).toBe(false);
  });

  it("keys its digests: another deployment's digester does not match", () => {
    const secret = newSecret();
    const other = new SecretDigester(randomBytes(32));
    expect(other.matches(secret, digester.digest(secret))).toBe(false);
  });
});

describe("organizations", () => {
  it("creates an organization with a trimmed name and a whsec_ webhook secret", async () => {
    const created = await createOrganization(db, "  Acme Mutual  ");
    expect(created.org_id).toMatch(/^org_/);
    expect(created.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await findOrganization(db, created.org_id))?.name).toBe("Acme Mutual");
    expect(await findWebhookSecret(db, created.org_id)).toBe(created.webhook_secret);
  });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["longer than 200 characters", "x".repeat(201)],
  ])("refuses a name that is %s with invalid_name", async (_case, name) => {
    const error = await domainError(() => createOrganization(db, name));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.code).toBe("invalid_name");
  });

  it("accepts a name of exactly 200 characters", async () => {
    const created = await createOrganization(db, "y".repeat(200));
    expect((await findOrganization(db, created.org_id))?.name).toHaveLength(200);
  });

  it("finds the oldest organization of a name", async () => {
    const name = `Twins ${newSecret()}`;
    const first = await createOrganization(db, name);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await createOrganization(db, name);
    expect((await findOrganizationByName(db, name))?.org_id).toBe(first.org_id);
    expect(await findOrganizationByName(db, `Nobody ${newSecret()}`)).toBeUndefined();
  });

  it("answers organization_not_found for an unknown id", async () => {
    expect(await findOrganization(db, "org_unknown")).toBeUndefined();
    expect(await findWebhookSecret(db, "org_unknown")).toBeUndefined();
    const error = await domainError(() => requireOrganization(db, "org_unknown"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe("organization_not_found");
  });
});

describe("API clients", () => {
  it("stores only a digest that matches the secret handed out once", async () => {
    const { org_id } = await createOrganization(db, "Client Mutual");
    const created = await createApiClient(db, digester, org_id);
    expect(created.client_id).toMatch(/^cl_/);
    const found = await findActiveApiClient(db, created.client_id);
    expect(found?.org_id).toBe(org_id);
    expect(found?.secret_digest).not.toBe(created.client_secret);
    expect(digester.matches(created.client_secret, found?.secret_digest)).toBe(true);
  });

  it("does not find a revoked client, nor an unknown one", async () => {
    const { org_id } = await createOrganization(db, "Revoking Mutual");
    const created = await createApiClient(db, digester, org_id);
    await db
      .updateTable("api_clients")
      .set({ revoked_at: Date.now() })
      .where("client_id", "=", created.client_id)
      .execute();
    expect(await findActiveApiClient(db, created.client_id)).toBeUndefined();
    expect(await findActiveApiClient(db, "cl_unknown")).toBeUndefined();
  });

  it("refuses an unknown organization with organization_not_found", async () => {
    const error = await domainError(() => createApiClient(db, digester, "org_unknown"));
    expect(error.code).toBe("organization_not_found");
    const stored = await db.selectFrom("api_clients").select("client_id").where("org_id", "=", "org_unknown").execute();
    expect(stored).toEqual([]);
  });
});

describe("iframe keys", () => {
  it("verifies any live key of the organization, and no other", async () => {
    const { org_id } = await createOrganization(db, "Iframe Mutual");
    const first = await createIframeKey(db, digester, org_id);
    const second = await createIframeKey(db, digester, org_id);
    expect(first.key_id).toMatch(/^ik_/);
    expect(await verifyIframeKey(db, digester, org_id, first.api_key)).toBe(true);
    expect(await verifyIframeKey(db, digester, org_id, second.api_key)).toBe(true);
    expect(await verifyIframeKey(db, digester, org_id, newSecret())).toBe(false);

    const stored = await db.selectFrom("iframe_keys").select("key_digest").where("org_id", "=", org_id).execute();
    expect(JSON.stringify(stored)).not.toContain(first.api_key);
  });

  it("does not verify one organization's key for another", async () => {
    const a = await createOrganization(db, "Org A");
    const b = await createOrganization(db, "Org B");
    const keyOfA = await createIframeKey(db, digester, a.org_id);
    await createIframeKey(db, digester, b.org_id);
    expect(await verifyIframeKey(db, digester, b.org_id, keyOfA.api_key)).toBe(false);
  });

  it("does not verify a revoked key, nor any key of an unknown organization", async () => {
    const { org_id } = await createOrganization(db, "Revoked Keys Mutual");
    const key = await createIframeKey(db, digester, org_id);
    await db.updateTable("iframe_keys").set({ revoked_at: Date.now() }).where("key_id", "=", key.key_id).execute();
    expect(await verifyIframeKey(db, digester, org_id, key.api_key)).toBe(false);
    expect(await verifyIframeKey(db, digester, "org_unknown", key.api_key)).toBe(false);
  });

  it("refuses an unknown organization with organization_not_found", async () => {
    const error = await domainError(() => createIframeKey(db, digester, "org_unknown"));
    expect(error.code).toBe("organization_not_found");
  });
});

describe("host origins", () => {
  it.each([
    ["https://Core.Example.com:443/", "https://core.example.com"],
    ["https://core.example.com", "https://core.example.com"],
    ["  http://localhost:5173  ", "http://localhost:5173"],
    ["http://core.example.com:80", "http://core.example.com"],
    ["https://core.example.com:8443", "https://core.example.com:8443"],
  ])("normalizes %s to %s", (input, expected) => {
    expect(normalizeOrigin(input)).toBe(expected);
  });

  it.each([
    "not a url",
    "core.example.com",
    "https://x.com/path",
    "https://x.com/?q=1",
    "https://x.com/#frag",
    "https://user:pw@x.com",
    "ftp://x.com",
    "javascript:alert(1)",
  ])("refuses %s with invalid_origin", (input) => {
    let caught: unknown;
    try {
      normalizeOrigin(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidInputError);
    expect((caught as DomainError).code).toBe("invalid_origin");
  });

  it("adds an origin once, lists sorted, and removes it", async () => {
    const { org_id } = await createOrganization(db, "Origins Mutual");
    expect(await listHostOrigins(db, org_id)).toEqual([]);
    expect(await addHostOrigin(db, org_id, "https://z.example.com")).toBe("https://z.example.com");
    await addHostOrigin(db, org_id, "https://A.example.com/");
    await addHostOrigin(db, org_id, "https://a.example.com");
    await addHostOrigin(db, org_id, "http://m.example.com:8080");
    expect(await listHostOrigins(db, org_id)).toEqual([
      "http://m.example.com:8080",
      "https://a.example.com",
      "https://z.example.com",
    ]);
    expect(await removeHostOrigin(db, org_id, "https://Z.example.com:443")).toBe("https://z.example.com");
    expect(await listHostOrigins(db, org_id)).toEqual(["http://m.example.com:8080", "https://a.example.com"]);
  });

  it("keeps one organization's origins invisible to another, and removable only by their owner", async () => {
    const a = await createOrganization(db, "Origins A");
    const b = await createOrganization(db, "Origins B");
    await addHostOrigin(db, a.org_id, "https://a-core.example.com");
    expect(await listHostOrigins(db, b.org_id)).toEqual([]);
    const error = await domainError(() => removeHostOrigin(db, b.org_id, "https://a-core.example.com"));
    expect(error.code).toBe("origin_not_found");
    expect(await listHostOrigins(db, a.org_id)).toEqual(["https://a-core.example.com"]);
  });

  it("answers origin_not_found for an origin that is not registered", async () => {
    const { org_id } = await createOrganization(db, "Unregistered Mutual");
    const error = await domainError(() => removeHostOrigin(db, org_id, "https://nowhere.example.com"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe("origin_not_found");
  });

  it("answers organization_not_found before looking at the origin", async () => {
    for (const work of [
      () => addHostOrigin(db, "org_unknown", "https://x.example.com"),
      () => addHostOrigin(db, "org_unknown", "not a url"),
      () => listHostOrigins(db, "org_unknown"),
      () => removeHostOrigin(db, "org_unknown", "https://x.example.com"),
    ]) {
      expect((await domainError(work)).code).toBe("organization_not_found");
    }
  });

  it("answers invalid_origin through addHostOrigin and stores nothing", async () => {
    const { org_id } = await createOrganization(db, "Invalid Origins Mutual");
    expect((await domainError(() => addHostOrigin(db, org_id, "https://x.com/path"))).code).toBe("invalid_origin");
    expect(await listHostOrigins(db, org_id)).toEqual([]);
  });
});

describe("callback prefixes", () => {
  it.each([
    ["https://Hooks.Example.com/lotline/", "https://hooks.example.com/lotline/"],
    ["https://hooks.example.com", "https://hooks.example.com/"],
    ["https://hooks.example.com:443/in?org=1", "https://hooks.example.com/in?org=1"],
    ["http://127.0.0.1:9000/hooks", "http://127.0.0.1:9000/hooks"],
  ])("normalizes %s to %s", (input, expected) => {
    expect(normalizeCallbackPrefix(input)).toBe(expected);
  });

  it.each([
    "not a url",
    "hooks.example.com/lotline",
    "ftp://hooks.example.com/",
    "https://user:pw@hooks.example.com/",
    "https://hooks.example.com/#x",
  ])("refuses %s with invalid_callback_prefix", (input) => {
    let caught: unknown;
    try {
      normalizeCallbackPrefix(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidInputError);
    expect((caught as DomainError).code).toBe("invalid_callback_prefix");
  });

  it("adds a prefix once, lists sorted, and removes it", async () => {
    const { org_id } = await createOrganization(db, "Prefixes Mutual");
    expect(await addCallbackPrefix(db, org_id, "https://b.example.com/hooks")).toBe("https://b.example.com/hooks");
    await addCallbackPrefix(db, org_id, "https://B.example.com/hooks");
    await addCallbackPrefix(db, org_id, "https://a.example.com/");
    expect(await listCallbackPrefixes(db, org_id)).toEqual(["https://a.example.com/", "https://b.example.com/hooks"]);
    expect(await removeCallbackPrefix(db, org_id, "https://a.example.com")).toBe("https://a.example.com/");
    expect(await listCallbackPrefixes(db, org_id)).toEqual(["https://b.example.com/hooks"]);
  });

  it("keeps one organization's prefixes invisible to another", async () => {
    const a = await createOrganization(db, "Prefixes A");
    const b = await createOrganization(db, "Prefixes B");
    await addCallbackPrefix(db, a.org_id, "https://a-hooks.example.com/");
    expect(await listCallbackPrefixes(db, b.org_id)).toEqual([]);
    const error = await domainError(() => removeCallbackPrefix(db, b.org_id, "https://a-hooks.example.com/"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe("callback_prefix_not_found");
    expect(await listCallbackPrefixes(db, a.org_id)).toEqual(["https://a-hooks.example.com/"]);
  });

  it("answers organization_not_found for an unknown organization", async () => {
    expect((await domainError(() => addCallbackPrefix(db, "org_unknown", "https://x.example.com/"))).code).toBe(
      "organization_not_found",
    );
    expect((await domainError(() => listCallbackPrefixes(db, "org_unknown"))).code).toBe("organization_not_found");
  });

  it("answers invalid_callback_prefix through addCallbackPrefix and stores nothing", async () => {
    const { org_id } = await createOrganization(db, "Invalid Prefixes Mutual");
    expect((await domainError(() => addCallbackPrefix(db, org_id, "ftp://x"))).code).toBe("invalid_callback_prefix");
    expect(await listCallbackPrefixes(db, org_id)).toEqual([]);
  });
});
