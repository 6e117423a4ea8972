import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig, type Settings } from "../config/config.js";
import { type CliRun, runCli } from "../test/run-cli.js";
import { basic, freePort } from "../test/test-app.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import { startDemo } from "./commands/demo-command.js";
import { type Role, startServer } from "./server.js";

/**
 * Where `lotline client create` and `lotline iframe-key create` take the URLs and audience they print: the
 * `--public-url` flag, else what the service last started on the database recorded, else their own environment.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh database for one test, so what a service recorded in one test cannot leak into another. */
async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  cleanups.push(() => database.destroy());
  return database;
}

/** Starts the service over `database` as `lotline serve` would with `env`, on a free port unless `env` says. */
async function serve(database: TestDatabase, env: Settings = {}, role: Role = "all"): Promise<string> {
  const port = String(await freePort());
  const config = loadConfig({ LOTLINE_DATABASE_URL: database.url, PORT: port, LOTLINE_LOG_LEVEL: "silent", ...env });
  const server = await startServer(config, role);
  cleanups.push(() => server.stop());
  return server.url;
}

/** Runs a command that must succeed and print exactly one JSON object on stdout; answers it and the stderr. */
async function runJson(argv: string[], env: Settings): Promise<{ json: Record<string, string>; stderr: string }> {
  const result: CliRun = await runCli([...argv, "--json"], env);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout.endsWith("\n")).toBe(true);
  expect(result.stdout.trimEnd().split("\n")).toHaveLength(1);
  return { json: JSON.parse(result.stdout), stderr: result.stderr };
}

async function newOrg(database: TestDatabase): Promise<string> {
  return (await runJson(["org", "create", "--name", "Acme Mutual"], { LOTLINE_DATABASE_URL: database.url })).json
    .org_id as string;
}

/** What an integrator does with `client create`'s output: ask `{token_url}/oauth/token` for a token. */
async function requestToken(printed: Record<string, string>, audience = printed.audience): Promise<Response> {
  return fetch(`${printed.token_url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: printed.client_id,
      client_secret: printed.client_secret,
      audience,
    }),
  });
}

const NO_SERVICE_NOTE = /^lotline: note: no service has started on this database yet[^\n]*\n$/;

describe("lotline client create and iframe-key create", () => {
  it("print the audience and token URL of the service started on another port, which give a token over HTTP", async () => {
    const database = await freshDatabase();
    const url = await serve(database);
    expect(url).not.toBe("http://127.0.0.1:8080");
    const orgId = await newOrg(database);

    // A shell that says nothing of the service, and one that says the default port: both print the service's.
    for (const env of [{ LOTLINE_DATABASE_URL: database.url }, { LOTLINE_DATABASE_URL: database.url, PORT: "8080" }]) {
      const { json, stderr } = await runJson(["client", "create", "--org", orgId], env);
      expect(stderr).toBe("");
      expect(json.audience).toBe(`${url}/v1`);
      expect(json.token_url).toBe(url);

      const token = await requestToken(json);
      expect(token.status).toBe(200);
      const { access_token } = (await token.json()) as { access_token: string };
      const me = await fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${access_token}` } });
      expect(await me.json()).toEqual({ org_id: orgId, client_id: json.client_id });
    }

    const { json: key } = await runJson(["iframe-key", "create", "--org", orgId], {
      LOTLINE_DATABASE_URL: database.url,
    });
    expect(key.iframe_auth_url).toBe(url);
    const signin = await fetch(`${key.iframe_auth_url}/auth/signin/integration`, {
      method: "POST",
      headers: { authorization: basic(orgId, key.api_key as string) },
    });
    expect(signin.status).toBe(200);

    const human = await runCli(["client", "create", "--org", orgId], { LOTLINE_DATABASE_URL: database.url });
    expect(human.stdout).toContain(`audience: ${url}/v1\n`);
    expect(human.stdout).toContain(`token endpoint: ${url}/oauth/token`);
  });

  it("print what a service behind a proxy was configured with: its LOTLINE_PUBLIC_URL and LOTLINE_API_AUDIENCE", async () => {
    const database = await freshDatabase();
    await serve(database, { LOTLINE_PUBLIC_URL: "https://lotline.example.com/", LOTLINE_API_AUDIENCE: "urn:lotline" });
    const orgId = await newOrg(database);
    const { json } = await runJson(["client", "create", "--org", orgId], { LOTLINE_DATABASE_URL: database.url });
    expect([json.token_url, json.audience]).toEqual(["https://lotline.example.com", "urn:lotline"]);
  });

  it("take --public-url over the service's record, deriving the audience from it unless LOTLINE_API_AUDIENCE is set", async () => {
    const database = await freshDatabase();
    const url = await serve(database);
    const orgId = await newOrg(database);
    const env = { LOTLINE_DATABASE_URL: database.url };
    const flag = ["--public-url", "https://lotline.example.com/"];

    const { json, stderr } = await runJson(["client", "create", "--org", orgId, ...flag], env);
    expect(stderr).toBe("");
    expect([json.token_url, json.audience]).toEqual(["https://lotline.example.com", "https://lotline.example.com/v1"]);
    const { json: key } = await runJson(["iframe-key", "create", "--org", orgId, ...flag], env);
    expect(key.iframe_auth_url).toBe("https://lotline.example.com");

    const withAudience = await runJson(["client", "create", "--org", orgId, ...flag], {
      ...env,
      LOTLINE_API_AUDIENCE: "urn:lotline",
    });
    expect(withAudience.json.audience).toBe("urn:lotline");

    // The flag is believed, not checked: the service here refuses that audience, and says which it would accept.
    const refused = await requestToken({ ...json, token_url: url });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: "invalid_target",
      error_description: `unknown audience "https://lotline.example.com/v1"; this service issues tokens for "${url}/v1"`,
    });
  });

  it("print their own environment's URLs when no service has started on the database, saying so on stderr", async () => {
    const database = await freshDatabase();
    const orgId = await newOrg(database);
    const env = { LOTLINE_DATABASE_URL: database.url, PORT: "8080" };

    const { json, stderr } = await runJson(["client", "create", "--org", orgId], env);
    expect([json.token_url, json.audience]).toEqual(["http://127.0.0.1:8080", "http://127.0.0.1:8080/v1"]);
    expect(stderr).toMatch(NO_SERVICE_NOTE);
    expect(stderr).toContain("http://127.0.0.1:8080");
    const key = await runJson(["iframe-key", "create", "--org", orgId], env);
    expect(key.json.iframe_auth_url).toBe("http://127.0.0.1:8080");
    expect(key.stderr).toMatch(NO_SERVICE_NOTE);

    // A worker answers no token request: it records nothing.
    await serve(database, {}, "worker");
    expect((await runJson(["client", "create", "--org", orgId], env)).stderr).toMatch(NO_SERVICE_NOTE);
  });

  it("print the service's URLs over this shell's own LOTLINE_PUBLIC_URL, saying so when they differ", async () => {
    const database = await freshDatabase();
    const url = await serve(database);
    const orgId = await newOrg(database);

    const other = { LOTLINE_DATABASE_URL: database.url, LOTLINE_PUBLIC_URL: "http://127.0.0.1:8080" };
    const { json, stderr } = await runJson(["client", "create", "--org", orgId], other);
    expect(json.token_url).toBe(url);
    expect(stderr).toMatch(/^lotline: note: [^\n]*LOTLINE_PUBLIC_URL[^\n]*\n$/);
    expect(stderr).toContain(`uses ${url} and ${url}/v1`);

    const same = { LOTLINE_DATABASE_URL: database.url, LOTLINE_PUBLIC_URL: url };
    expect((await runJson(["client", "create", "--org", orgId], same)).stderr).toBe("");
  });

  it("print the URLs of the service started last when several share the database", async () => {
    const database = await freshDatabase();
    await serve(database);
    const last = await serve(database);
    await serve(database, {}, "worker");
    const orgId = await newOrg(database);
    const { json } = await runJson(["client", "create", "--org", orgId], { LOTLINE_DATABASE_URL: database.url });
    expect(json.token_url).toBe(last);
    expect((await requestToken(json)).status).toBe(200);
  });

  it("print the URLs of lotline demo", async () => {
    const database = await freshDatabase();
    const folder = mkdtempSync(join(tmpdir(), "lotline-urls-"));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    const port = await freePort();
    const io = {
      env: {
        LOTLINE_DATABASE_URL: database.url,
        PORT: String(port),
        LOTLINE_DEMO_HOST_PORT: "0",
        LOTLINE_LOG_LEVEL: "silent",
      },
      stdout: () => {},
      stderr: () => {},
    };
    const demo = await startDemo(io, { credentialsFile: join(folder, "demo-credentials.json") });
    cleanups.push(() => demo.stop());
    const { json } = await runJson(["iframe-key", "create", "--org", demo.credentials.org_id], {
      LOTLINE_DATABASE_URL: database.url,
    });
    expect(json.iframe_auth_url).toBe(`http://127.0.0.1:${port}`);
  });

  it("refuse a --public-url that is not an http(s) origin, with one line naming the flag, and create nothing", async () => {
    const database = await freshDatabase();
    const orgId = await newOrg(database);
    const env = { LOTLINE_DATABASE_URL: database.url };
    for (const value of ["ftp://lotline.example.com", "not a url", "https://lotline.example.com/?q=1", ""]) {
      const result = await runCli(["client", "create", "--org", orgId, "--public-url", value, "--json"], env);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^lotline: --public-url[^\n]+\n$/);
    }
    const clients = await database.database.db.selectFrom("api_clients").select("client_id").execute();
    expect(clients).toEqual([]);
  });
});
