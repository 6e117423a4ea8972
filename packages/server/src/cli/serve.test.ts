import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Polygon } from "geojson";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../db/database.js";
import { rectangle, square } from "../geo/geometry/test-shapes.js";
import { runCli } from "../test/run-cli.js";
import { freePort } from "../test/test-app.js";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../test/test-database.js";

/**
 * The real `lotline` binary in a child process, as an operator runs it: the bundle `npm test` builds, or the
 * compiled `dist` when a compile is newer (by hand: `npx tsc --build`).
 */
const BIN = fileURLToPath(new URL("../../bin/lotline.js", import.meta.url));

interface Child {
  process: ChildProcess;
  output: () => { stdout: string; stderr: string };
  /** The exit code, or rejects if the process has not ended within `ms`. */
  exited: (ms: number) => Promise<number | null>;
}

function lotline(args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", LOTLINE_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    process: child,
    output: () => ({ stdout, stderr }),
    exited: (ms) =>
      Promise.race([
        exit,
        new Promise<never>((_resolve, reject) =>
          setTimeout(() => reject(new Error(`lotline ${args.join(" ")} still running after ${ms} ms`)), ms).unref(),
        ),
      ]),
  };
}

/** Polls `url` until it answers, or fails after `ms` with what the process printed. */
async function waitFor(url: string, child: Child, ms = 15_000): Promise<Response> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await fetch(url);
    } catch {
      if (child.process.exitCode !== null) throw new Error(`lotline exited early: ${JSON.stringify(child.output())}`);
      if (Date.now() > deadline) throw new Error(`no answer from ${url}: ${JSON.stringify(child.output())}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const running: Child[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.process.exitCode === null) child.process.kill("SIGKILL");
});

describe("lotline serve", () => {
  let testDatabase: TestDatabase;
  beforeAll(async () => {
    testDatabase = await createTestDatabase();
  });
  afterAll(() => testDatabase.destroy());

  it("serves /healthz and /readyz on the --port given, and exits 0 on SIGTERM", async () => {
    const port = await freePort();
    // The flag wins over the variable: nothing listens on the PORT of the environment.
    const otherPort = await freePort();
    const child = lotline(["serve", "--port", String(port)], {
      LOTLINE_DATABASE_URL: testDatabase.url,
      PORT: String(otherPort),
    });
    running.push(child);

    const health = await waitFor(`http://127.0.0.1:${port}/healthz`, child);
    expect(health.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
    // The issuer follows the flag too: the metadata names the port actually listened on.
    const metadata = await fetch(`http://127.0.0.1:${port}/.well-known/oauth-authorization-server`);
    expect(((await metadata.json()) as { issuer: string }).issuer).toBe(`http://127.0.0.1:${port}`);

    child.process.kill("SIGTERM");
    expect(await child.exited(5_000)).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it("cuts a request still open at the shutdown deadline instead of waiting on it, and says so", async () => {
    const port = await freePort();
    const child = lotline(["serve", "--port", String(port), "--shutdown-timeout", "1"], {
      LOTLINE_DATABASE_URL: testDatabase.url,
    });
    running.push(child);
    await waitFor(`http://127.0.0.1:${port}/healthz`, child);
    // A client that sent half its headers: Node would wait a minute for the rest before giving up on it.
    const socket = connect(port, "127.0.0.1");
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    await new Promise<void>((resolve) =>
      socket.write("POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\n", () => resolve()),
    );

    child.process.kill("SIGTERM");
    expect(await child.exited(10_000)).toBe(0);
    await closed;
    const warning = child
      .output()
      .stdout.split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string; connections: number })
      .find((line) => line.msg.includes("shutdown deadline"));
    expect(warning).toMatchObject({ level: 40, connections: 1 });
  });

  it("exits 2 with one line on stderr for an unknown --role", async () => {
    const child = lotline(["serve", "--role", "nonsense"], { LOTLINE_DATABASE_URL: testDatabase.url });
    running.push(child);
    expect(await child.exited(10_000)).toBe(2);
    expect(child.output().stderr).toMatch(/^lotline: --role must be one of all, api, worker\n$/);
  });

  it("exits 2 with one line naming the variable for a bad --port", async () => {
    const child = lotline(["serve", "--port", "abc"], { LOTLINE_DATABASE_URL: testDatabase.url });
    running.push(child);
    expect(await child.exited(10_000)).toBe(2);
    expect(child.output().stderr).toMatch(/^lotline: PORT: [^\n]+\n$/);
  });
});

/**
 * The issue this guards against: the service on another port than the CLI's default, and `lotline client create`
 * run from another shell printing its own default port's audience, which the service then refused.
 */
describe("lotline serve and the commands run from another shell", () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of databases) await database.destroy();
  });

  async function freshDatabase(): Promise<TestDatabase> {
    const database = await createTestDatabase();
    databases.push(database);
    return database;
  }

  /** `lotline serve` on `port`, answered once it answers. */
  async function serveOn(port: number, database: TestDatabase, args: string[] = []): Promise<Child> {
    const child = lotline(["serve", ...args], { LOTLINE_DATABASE_URL: database.url, PORT: String(port) });
    running.push(child);
    await waitFor(`http://127.0.0.1:${port}/healthz`, child);
    return child;
  }

  it("client create, in a shell that says nothing of the service, prints its audience and token URL, which work", async () => {
    const database = await freshDatabase();
    const port = await freePort();
    await serveOn(port, database);
    const shell = { LOTLINE_DATABASE_URL: database.url };

    const org = await runCli(["org", "create", "--name", "Acme Mutual", "--json"], shell);
    const orgId = (JSON.parse(org.stdout) as { org_id: string }).org_id;
    const created = await runCli(["client", "create", "--org", orgId, "--json"], shell);
    expect(created.stderr).toBe("");
    const printed = JSON.parse(created.stdout) as Record<string, string>;
    expect([printed.token_url, printed.audience]).toEqual([`http://127.0.0.1:${port}`, `http://127.0.0.1:${port}/v1`]);

    const token = await fetch(`${printed.token_url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: printed.client_id,
        client_secret: printed.client_secret,
        audience: printed.audience,
      }),
    });
    expect(token.status).toBe(200);
  });

  it("warns in its log when it replaces another public URL recorded on the same database", async () => {
    const database = await freshDatabase();
    const [first, second] = [await freePort(), await freePort()];
    const earlier = await serveOn(first, database);
    const later = await serveOn(second, database, ["--port", String(second)]);

    expect(earlier.output().stdout).toBe("");
    const warning = later
      .output()
      .stdout.split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string; previous: unknown; current: unknown })
      .find((line) => line.msg.includes("differs from that of the service last started on this database"));
    expect(warning?.level).toBe(40);
    expect(warning?.previous).toEqual({
      public_url: `http://127.0.0.1:${first}`,
      api_audience: `http://127.0.0.1:${first}/v1`,
      recorded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(warning?.current).toEqual({
      public_url: `http://127.0.0.1:${second}`,
      api_audience: `http://127.0.0.1:${second}/v1`,
    });
  });
});

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The URL of a database with no schema at all: a new SQLite file, or a new empty PostgreSQL schema. */
async function freshDatabaseUrl(): Promise<string> {
  if (TEST_DIALECT === "sqlite") {
    const folder = mkdtempSync(join(tmpdir(), "lotline-migrate-"));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    return `sqlite:${join(folder, "fresh", "lotline.db")}`;
  }
  const runUrl = inject("postgresUrl");
  const schema = `m_${randomBytes(6).toString("hex")}`;
  const admin = openDatabase(runUrl);
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  await admin.close();
  cleanups.push(async () => {
    const drop = openDatabase(runUrl);
    await sql`drop schema ${sql.id(schema)} cascade`.execute(drop.db);
    await drop.close();
  });
  const url = new URL(runUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return url.href;
}

describe("lotline migrate", () => {
  it("applies the migrations to a fresh database, then says the schema is up to date", async () => {
    const url = await freshDatabaseUrl();
    const first = lotline(["migrate"], { LOTLINE_DATABASE_URL: url });
    running.push(first);
    expect(await first.exited(15_000)).toBe(0);
    expect(first.output().stdout).toMatch(/^Applied 0001-foundation[^\n]*\.\n$/);

    const second = lotline(["migrate"], { LOTLINE_DATABASE_URL: url });
    running.push(second);
    expect(await second.exited(15_000)).toBe(0);
    expect(second.output().stdout).toBe("The schema is up to date.\n");
    expect(second.output().stderr).toBe("");
  });

  it("lets several processes migrate the same fresh database at once: one applies, the others find it done", async () => {
    const url = await freshDatabaseUrl();
    const children = Array.from({ length: 4 }, () => lotline(["migrate"], { LOTLINE_DATABASE_URL: url }));
    running.push(...children);
    const codes = await Promise.all(children.map((child) => child.exited(20_000)));
    const outputs = children.map((child) => child.output());
    expect(codes, JSON.stringify(outputs)).toEqual([0, 0, 0, 0]);
    expect(outputs.filter((output) => output.stdout.startsWith("Applied "))).toHaveLength(1);
    expect(outputs.filter((output) => output.stdout === "The schema is up to date.\n")).toHaveLength(3);
  });
});

describe("lotline import", () => {
  const LOT = 0.001;

  /** Writes `features` one GeoJSON Feature a line into a new folder, and answers the file's path. */
  function featureFile(name: string, features: { id: string; geometry: Polygon }[]): string {
    const folder = mkdtempSync(join(tmpdir(), "lotline-import-"));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    const file = join(folder, name);
    const lines = features.map(({ id, geometry }) =>
      JSON.stringify({ type: "Feature", properties: { ID: id }, geometry }),
    );
    writeFileSync(file, lines.join("\n"));
    return file;
  }

  async function imported(args: string[], url: string): Promise<{ imported: number; rejected: number }> {
    const child = lotline(["import", ...args, "--id-field", "ID", "--json"], { LOTLINE_DATABASE_URL: url });
    running.push(child);
    expect(await child.exited(30_000), JSON.stringify(child.output())).toBe(0);
    return JSON.parse(child.output().stdout);
  }

  it("imports parcels, then footprints, each given by the import's thread the lot holding most of it", async () => {
    const url = await freshDatabaseUrl();
    const lots = [0, 1, 2].map((i) => ({ id: `L-${i}`, geometry: square(-71.1 + i * LOT, 42.37, LOT) }));
    const footprints = [
      ...[0, 1, 2].map((i) => ({ id: `B-${i}`, geometry: square(-71.1 + (i + 0.4) * LOT, 42.3704, LOT / 5) })),
      // across the first two lots, two thirds of it in the second
      { id: "B-across", geometry: rectangle(-71.1 + 0.9 * LOT, 42.3702, -71.1 + 1.2 * LOT, 42.3704) },
    ];
    expect(await imported(["parcels", featureFile("lots.geojsonl", lots), "--name", "lots"], url)).toMatchObject({
      imported: 3,
      rejected: 0,
    });
    const buildings = featureFile("footprints.geojsonl", footprints);
    expect(await imported(["buildings", buildings, "--name", "footprints"], url)).toMatchObject({
      imported: 4,
      rejected: 0,
    });

    const database = openDatabase(url);
    try {
      const rows = await database.db
        .selectFrom("buildings as b")
        .innerJoin("parcels as p", "p.parcel_id", "b.parcel_id")
        .select(["b.source_id as building", "p.source_id as lot"])
        .execute();
      expect(Object.fromEntries(rows.map((row) => [row.building, row.lot]))).toEqual({
        "B-0": "L-0",
        "B-1": "L-1",
        "B-2": "L-2",
        "B-across": "L-1",
      });
    } finally {
      await database.close();
    }
  });
});
