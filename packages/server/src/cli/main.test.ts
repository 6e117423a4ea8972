import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { loadConfig, type Settings } from "../config/config.js";
import { type Database, openDatabase } from "../db/database.js";
import type { Schema } from "../db/schema.js";
import { createServices } from "../services.js";
import { runCli } from "../test/run-cli.js";
import { basic } from "../test/test-app.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const BASE64URL_256_BITS = /^[A-Za-z0-9_-]{43}$/;

let testDatabase: TestDatabase;
/** A second connection, opened on the very URL the CLI is given, to look at what the commands stored. */
let inspect: Database;
let env: Settings;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  inspect = openDatabase(testDatabase.url);
  env = { LOTLINE_DATABASE_URL: testDatabase.url, LOTLINE_PUBLIC_URL: "http://lotline.test" };
});
afterAll(async () => {
  await inspect.close();
  await testDatabase.destroy();
});

async function run(argv: string[], settings: Settings = env): Promise<Run> {
  return runCli(argv, settings);
}

/**
 * No service runs on this file's database, so the commands that print the service's URLs print this environment's
 * and say so on stderr.
 */
const NO_SERVICE_NOTE = /^lotline: note: no service has started on this database yet[^\n]*\n$/;

/**
 * Runs a command that must succeed and print exactly one JSON object on one line, and returns that object;
 * `stderr` is what it must say beside it.
 */
async function runJson(argv: string[], stderr: RegExp = /^$/): Promise<Record<string, unknown>> {
  const result = await run([...argv, "--json"]);
  expect(result.stderr).toMatch(stderr);
  expect(result.code).toBe(0);
  expect(result.stdout.endsWith("\n")).toBe(true);
  expect(result.stdout.trimEnd().split("\n")).toHaveLength(1);
  const parsed: unknown = JSON.parse(result.stdout);
  expect(parsed).toBeTypeOf("object");
  expect(Array.isArray(parsed)).toBe(false);
  return parsed as Record<string, unknown>;
}

async function newOrg(name = "Acme Mutual"): Promise<string> {
  return (await runJson(["org", "create", "--name", name])).org_id as string;
}

/** Every row of the credential tables, as one string, to search for a secret in clear. */
async function storedCredentials(): Promise<string> {
  const tables: (keyof Schema)[] = ["api_clients", "iframe_keys", "instance_settings", "signing_keys"];
  const rows = await Promise.all(tables.map((table) => inspect.db.selectFrom(table).selectAll().execute()));
  return JSON.stringify(rows);
}

/** The application over the same database, to prove that printed credentials work. */
async function appOverCliDatabase(): Promise<FastifyInstance> {
  return buildApp(await createServices(loadConfig(env), inspect));
}

describe("lotline org create", () => {
  it("prints {org_id, webhook_secret} with a whsec_ secret, and stores the organization", async () => {
    const result = await runJson(["org", "create", "--name", "Acme Mutual"]);
    expect(Object.keys(result).sort()).toEqual(["org_id", "webhook_secret"]);
    expect(result.org_id).toMatch(/^org_[0-9a-z]+$/);
    const secret = result.webhook_secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);

    const row = await inspect.db
      .selectFrom("organizations")
      .select("name")
      .where("org_id", "=", result.org_id as string)
      .executeTakeFirst();
    expect(row?.name).toBe("Acme Mutual");
  });

  it("says which organization it created when --json is not given", async () => {
    const result = await run(["org", "create", "--name", "Human Mutual"]);
    expect(result.code).toBe(0);
    const orgId = result.stdout.match(/org_[0-9a-z]+/)?.[0];
    expect(orgId).toBeDefined();
    const row = await inspect.db
      .selectFrom("organizations")
      .select("name")
      .where("org_id", "=", orgId as string)
      .executeTakeFirst();
    expect(row?.name).toBe("Human Mutual");
  });
});

describe("lotline client create", () => {
  it("prints {client_id, client_secret, audience, token_url}, keeps only a digest, and the secret gets a token", async () => {
    const orgId = await newOrg();
    const result = await runJson(["client", "create", "--org", orgId], NO_SERVICE_NOTE);
    expect(Object.keys(result).sort()).toEqual([
      "audience",
      "client_id",
      "client_secret",
      "token_endpoint",
      "token_url",
    ]);
    expect(result.token_endpoint).toBe(`${result.token_url}/oauth/token`);
    expect(result.client_id).toMatch(/^cl_[0-9a-z]+$/);
    expect(result.client_secret).toMatch(BASE64URL_256_BITS);
    expect(Buffer.from(result.client_secret as string, "base64url")).toHaveLength(32);
    expect(result.audience).toBe("http://lotline.test/v1");
    expect(result.token_url).toBe("http://lotline.test");

    const row = await inspect.db
      .selectFrom("api_clients")
      .select(["org_id", "secret_digest"])
      .where("client_id", "=", result.client_id as string)
      .executeTakeFirst();
    expect(row?.org_id).toBe(orgId);
    expect(row?.secret_digest).not.toBe(result.client_secret);
    expect(await storedCredentials()).not.toContain(result.client_secret as string);

    const app = await appOverCliDatabase();
    try {
      const response = await app.inject({
        method: "POST",
        url: "/oauth/token",
        payload: {
          grant_type: "client_credentials",
          client_id: result.client_id,
          client_secret: result.client_secret,
          audience: result.audience,
        },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().token_type).toBe("Bearer");
    } finally {
      await app.close();
    }
  });

  it("says which client it created when --json is not given", async () => {
    const orgId = await newOrg();
    const result = await run(["client", "create", "--org", orgId]);
    expect(result.code).toBe(0);
    const clientId = result.stdout.match(/cl_[0-9a-z]+/)?.[0];
    const row = await inspect.db
      .selectFrom("api_clients")
      .select("org_id")
      .where("client_id", "=", clientId ?? "")
      .executeTakeFirst();
    expect(row?.org_id).toBe(orgId);
    expect(result.stdout).toContain("http://lotline.test/oauth/token");
  });
});

describe("lotline iframe-key create", () => {
  it("prints {org_id, api_key, iframe_auth_url, key_id}, keeps only a digest, and the key signs in", async () => {
    const orgId = await newOrg();
    const result = await runJson(["iframe-key", "create", "--org", orgId], NO_SERVICE_NOTE);
    expect(Object.keys(result).sort()).toEqual(["api_key", "iframe_auth_url", "key_id", "org_id"]);
    expect(result.org_id).toBe(orgId);
    expect(result.api_key).toMatch(BASE64URL_256_BITS);
    expect(result.iframe_auth_url).toBe("http://lotline.test");

    const rows = await inspect.db.selectFrom("iframe_keys").selectAll().where("org_id", "=", orgId).execute();
    expect(rows).toHaveLength(1);
    expect(await storedCredentials()).not.toContain(result.api_key as string);

    const app = await appOverCliDatabase();
    try {
      const response = await app.inject({
        method: "POST",
        url: "/auth/signin/integration",
        headers: { authorization: basic(orgId, result.api_key as string) },
      });
      expect(response.statusCode).toBe(200);
      expect(typeof response.json().token).toBe("string");
    } finally {
      await app.close();
    }
  });

  it("mentions the organization and the sign-in endpoint when --json is not given", async () => {
    const orgId = await newOrg();
    const result = await run(["iframe-key", "create", "--org", orgId]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(orgId);
    expect(result.stdout).toContain("http://lotline.test/auth/signin/integration");
  });
});

describe("lotline endpoint add|list|remove", () => {
  it("registers a normalized origin once, lists origins sorted, and removes one", async () => {
    const orgId = await newOrg();
    const added = await runJson(["endpoint", "add", "--org", orgId, "--origin", "https://Core.Example.com:443/"]);
    expect(added).toEqual({ org_id: orgId, origin: "https://core.example.com" });
    await runJson(["endpoint", "add", "--org", orgId, "--origin", "https://core.example.com"]);
    await runJson(["endpoint", "add", "--org", orgId, "--origin", "http://localhost:5173"]);

    expect(await runJson(["endpoint", "list", "--org", orgId])).toEqual({
      org_id: orgId,
      origins: ["http://localhost:5173", "https://core.example.com"],
    });

    const removed = await runJson(["endpoint", "remove", "--org", orgId, "--origin", "https://CORE.example.com"]);
    expect(removed).toEqual({ org_id: orgId, origin: "https://core.example.com" });
    expect(await runJson(["endpoint", "list", "--org", orgId])).toEqual({
      org_id: orgId,
      origins: ["http://localhost:5173"],
    });
  });

  it("lists one origin a line without --json, and says when there are none", async () => {
    const orgId = await newOrg();
    expect((await run(["endpoint", "list", "--org", orgId])).stdout).toBe("(no host origins registered)\n");
    await run(["endpoint", "add", "--org", orgId, "--origin", "https://b.example.com"]);
    await run(["endpoint", "add", "--org", orgId, "--origin", "https://a.example.com"]);
    expect((await run(["endpoint", "list", "--org", orgId])).stdout).toBe(
      "https://a.example.com\nhttps://b.example.com\n",
    );
  });
});

describe("lotline callback add|list|remove", () => {
  it("registers a normalized prefix once, lists prefixes sorted, and removes one", async () => {
    const orgId = await newOrg();
    const added = await runJson(["callback", "add", "--org", orgId, "--prefix", "https://Hooks.Example.com/lotline/"]);
    expect(added).toEqual({ org_id: orgId, prefix: "https://hooks.example.com/lotline/" });
    await runJson(["callback", "add", "--org", orgId, "--prefix", "https://hooks.example.com/lotline/"]);
    await runJson(["callback", "add", "--org", orgId, "--prefix", "https://api.example.com/hooks"]);

    expect(await runJson(["callback", "list", "--org", orgId])).toEqual({
      org_id: orgId,
      prefixes: ["https://api.example.com/hooks", "https://hooks.example.com/lotline/"],
    });

    const removed = await runJson(["callback", "remove", "--org", orgId, "--prefix", "https://api.example.com/hooks"]);
    expect(removed).toEqual({ org_id: orgId, prefix: "https://api.example.com/hooks" });
    expect(await runJson(["callback", "list", "--org", orgId])).toEqual({
      org_id: orgId,
      prefixes: ["https://hooks.example.com/lotline/"],
    });
  });
});

describe("lotline callback add with a prefix webhooks may not reach", () => {
  it.each([
    [
      "http://127.0.0.1:9000/hooks/",
      /127\.0\.0\.1, a loopback address.*unless the service's LOTLINE_WEBHOOK_ALLOW_HOSTS/,
    ],
    ["http://localhost:8081/hooks/", /localhost resolves to .*, a loopback address/],
    ["https://10.1.2.3/hooks/", /10\.1\.2\.3, a private address/],
    ["http://169.254.169.254/latest/", /169\.254\.169\.254, a metadata address: webhooks to \S+ will be refused\n$/],
  ])("registers %s, warning on stderr, and exits 0", async (prefix, warning) => {
    const orgId = await newOrg();
    const result = await run(["callback", "add", "--org", orgId, "--prefix", prefix, "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ org_id: orgId, prefix });
    expect(result.stderr).toMatch(/^lotline: warning: [^\n]+\n$/);
    expect(result.stderr).toMatch(warning);
    expect(await runJson(["callback", "list", "--org", orgId])).toEqual({ org_id: orgId, prefixes: [prefix] });
  });

  it("says nothing for a public address", async () => {
    const orgId = await newOrg();
    const result = await run(["callback", "add", "--org", orgId, "--prefix", "https://93.184.215.14/hooks/"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
  });
});

describe("lotline keys rotate", () => {
  it("prints {kid} of a new signing key each time, retiring the previous one", async () => {
    const first = await runJson(["keys", "rotate"]);
    expect(Object.keys(first)).toEqual(["kid"]);
    expect(first.kid).toBeTypeOf("string");
    const second = await runJson(["keys", "rotate"]);
    expect(second.kid).not.toBe(first.kid);

    const keys = await inspect.db.selectFrom("signing_keys").select(["kid", "retired_at"]).execute();
    const byKid = new Map(keys.map((key) => [key.kid, key.retired_at]));
    expect(byKid.get(first.kid as string)).not.toBeNull();
    expect(byKid.get(second.kid as string)).toBeNull();
  });

  it("names the new key when --json is not given", async () => {
    const result = await run(["keys", "rotate"]);
    expect(result.code).toBe(0);
    const current = await inspect.db
      .selectFrom("signing_keys")
      .select("kid")
      .where("retired_at", "is", null)
      .executeTakeFirstOrThrow();
    expect(result.stdout).toContain(current.kid);
  });
});

describe("lotline help", () => {
  it("lists the commands on stdout", async () => {
    const result = await run(["help"]);
    expect(result.code).toBe(0);
    for (const command of ["serve", "migrate", "org create", "client create", "iframe-key create", "keys rotate"]) {
      expect(result.stdout).toContain(command);
    }
  });
});

describe("wrong arguments", () => {
  let orgId: string;
  beforeAll(async () => {
    orgId = await newOrg();
    await runJson(["endpoint", "add", "--org", orgId, "--origin", "https://registered.example.com"]);
  });

  const cases: [string, (org: string) => string[], RegExp][] = [
    ["an unknown command", () => ["frobnicate"], /unknown command/],
    ["an unknown verb", () => ["org", "delete", "--name", "x"], /unknown command "org delete"/],
    ["a missing required flag", () => ["org", "create"], /--name is required/],
    ["a required flag given empty", () => ["org", "create", "--name", ""], /--name is required/],
    ["an unknown flag", () => ["org", "create", "--name", "x", "--colour", "red"], /--colour/],
    ["a stray positional argument", () => ["org", "create", "--name", "x", "extra"], /unexpected argument "extra"/],
    ["an argument to migrate", () => ["migrate", "now"], /unexpected argument "now"/],
    ["an origin that is not a URL", (org) => ["endpoint", "add", "--org", org, "--origin", "not a url"], /not a url/],
    [
      "an origin with a path",
      (org) => ["endpoint", "add", "--org", org, "--origin", "https://x.com/path"],
      /https:\/\/x\.com\/path/,
    ],
    ["a callback prefix that is not http(s)", (org) => ["callback", "add", "--org", org, "--prefix", "ftp://x"], /ftp/],
    ["an unknown organization", () => ["client", "create", "--org", "org_doesnotexist"], /org_doesnotexist/],
    ["an unknown organization for a key", () => ["iframe-key", "create", "--org", "org_nope"], /org_nope/],
    [
      "removing an origin that is not registered",
      (org) => ["endpoint", "remove", "--org", org, "--origin", "https://unknown.example.com"],
      /https:\/\/unknown\.example\.com is not registered/,
    ],
    [
      "removing a callback prefix that is not registered",
      (org) => ["callback", "remove", "--org", org, "--prefix", "https://unknown.example.com/"],
      /not registered/,
    ],
  ];

  it.each(cases)("%s exits 2 with one line on stderr", async (_name, argv, message) => {
    const result = await run(argv(orgId));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^lotline: [^\n]+\n$/);
    expect(result.stderr).toMatch(message);
  });

  it("a bad configuration variable exits 2 with one line naming it", async () => {
    const result = await run(["org", "create", "--name", "x", "--json"], { ...env, PORT: "abc" });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^lotline: PORT: [^\n]+\n$/);
  });

  it("creates nothing for an unknown organization", async () => {
    const before = await inspect.db.selectFrom("api_clients").select("client_id").execute();
    await run(["client", "create", "--org", "org_doesnotexist"]);
    const after = await inspect.db.selectFrom("api_clients").select("client_id").execute();
    expect(after).toHaveLength(before.length);
  });

  it("leaves a registered origin in place after a failed removal", async () => {
    await run(["endpoint", "remove", "--org", orgId, "--origin", "https://unknown.example.com"]);
    expect(await runJson(["endpoint", "list", "--org", orgId])).toEqual({
      org_id: orgId,
      origins: ["https://registered.example.com"],
    });
  });
});
