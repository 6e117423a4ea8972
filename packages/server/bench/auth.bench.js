/**
 * `npm run bench:auth`: how fast the real application issues and checks tokens, each figure beside a baseline
 * of this machine, so the numbers mean something on any hardware:
 *
 *   1. bare RS256 signing (jose SignJWT, 2048-bit key, in process)   ← baseline of 3
 *   2. a bare Fastify JSON route, over HTTP                          ← baseline of 4
 *   3. POST /oauth/token on the Lotline app, over HTTP
 *   4. GET /v1/me with one valid bearer token, over HTTP
 *
 * Loopback only. Each measurement lasts BENCH_SECONDS (default 8). SQLite in a temporary folder by default;
 * BENCH_DATABASE_URL=postgres://… runs against PostgreSQL, in a throwaway schema dropped at the end. The load
 * generator (autocannon) runs in a worker thread so it does not share the server's event loop.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import Fastify from "fastify";
import { SignJWT } from "jose";
import { sql } from "kysely";
import { positiveInteger, print, printTable } from "../../../scripts/bench-kit.js";
import { buildApp } from "../dist/app.js";
import { loadConfig } from "../dist/config/config.js";
import { openDatabase } from "../dist/db/database.js";
import { migrateToLatest } from "../dist/db/migrate.js";
import { createServices } from "../dist/services.js";
import { createApiClient } from "../dist/tenancy/api-clients.js";
import { createOrganization } from "../dist/tenancy/organizations.js";

const SECONDS = positiveInteger("BENCH_SECONDS", 8);
const WARMUP_SECONDS = 1;
const CONNECTIONS = 10;
const DATABASE_URL = process.env.BENCH_DATABASE_URL;

/** Signs with `CONNECTIONS` signatures in flight (as many as the HTTP runs have requests in flight). */
async function measureSigning(seconds) {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const sign = () =>
    new SignJWT({ client_id: "cl_bench", org_id: "org_bench" })
      .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: "bench" })
      .setIssuer("http://lotline.bench")
      .setSubject("cl_bench")
      .setAudience("http://lotline.bench/v1")
      .setIssuedAt()
      .setExpirationTime("24h")
      .setJti(crypto.randomUUID())
      .sign(privateKey);
  const run = async (ms) => {
    const end = performance.now() + ms;
    const latencies = [];
    const lane = async () => {
      while (performance.now() < end) {
        const started = performance.now();
        await sign();
        latencies.push(performance.now() - started);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, lane));
    return { latencies, elapsed: (performance.now() - started) / 1000 };
  };
  await run(WARMUP_SECONDS * 1000);
  const { latencies, elapsed } = await run(seconds * 1000);
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { rate: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), total: latencies.length, non2xx: 0 };
}

/** One autocannon run after a short warm-up; the load comes from a worker thread. */
async function measureHttp(options) {
  const common = { connections: CONNECTIONS, workers: 1, ...options };
  await autocannon({ ...common, duration: WARMUP_SECONDS });
  const result = await autocannon({ ...common, duration: SECONDS });
  return {
    rate: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function bareFastify() {
  const app = Fastify({ logger: false });
  app.get("/", async () => ({ ok: true }));
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, url: `http://127.0.0.1:${app.server.address().port}` };
}

/** The whole Lotline app as the tests build it, over SQLite in `folder` or a fresh PostgreSQL schema. */
async function lotline(folder) {
  let database;
  let dropSchema = async () => {};
  if (DATABASE_URL) {
    const schema = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = openDatabase(DATABASE_URL);
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    await admin.close();
    database = openDatabase(DATABASE_URL, { searchPath: schema });
    dropSchema = async () => {
      const cleanup = openDatabase(DATABASE_URL);
      await sql`drop schema ${sql.id(schema)} cascade`.execute(cleanup.db);
      await cleanup.close();
    };
  } else {
    database = openDatabase(`sqlite:${join(folder, "lotline.db")}`);
  }
  const close = async () => {
    await database.close();
    await dropSchema();
  };
  try {
    await migrateToLatest(database);
    const config = loadConfig({
      LOTLINE_DATABASE_URL: DATABASE_URL ?? `sqlite:${join(folder, "lotline.db")}`,
      PORT: "0",
      LOTLINE_PUBLIC_URL: "http://lotline.bench",
      LOTLINE_LOG_LEVEL: "silent",
      LOTLINE_TOKEN_SOFT_LIMIT_HOUR: "0",
      LOTLINE_TOKEN_HARD_LIMIT_HOUR: "0",
      LOTLINE_TOKEN_SOFT_LIMIT_DAY: "0",
      LOTLINE_TOKEN_HARD_LIMIT_DAY: "0",
      LOTLINE_AUTH_FAILURE_LIMIT_CLIENT: "1000000000",
      LOTLINE_AUTH_FAILURE_LIMIT_IP: "1000000000",
    });
    const services = await createServices(config, database);
    await services.keys.signingKey();
    const org = await createOrganization(services.db, "Bench Mutual");
    const client = await createApiClient(services.db, services.digester, org.org_id);
    const app = await buildApp(services);
    await app.listen({ host: "127.0.0.1", port: 0 });
    return {
      app,
      url: `http://127.0.0.1:${app.server.address().port}`,
      dialect: database.dialect,
      tokenBody: JSON.stringify({
        grant_type: "client_credentials",
        client_id: client.client_id,
        client_secret: client.client_secret,
        audience: config.apiAudience,
      }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

function table(rows) {
  const header = ["measurement", "rate/s", "p50 ms", "p99 ms", "requests", "non-2xx", "vs baseline"];
  const cells = rows.map((row) => [
    row.name,
    row.rate.toFixed(0),
    row.p50.toFixed(2),
    row.p99.toFixed(2),
    String(row.total),
    String(row.non2xx),
    row.ratio ?? "",
  ]);
  printTable(header, cells);
}

async function main() {
  const folder = mkdtempSync(join(tmpdir(), "lotline-bench-"));
  const cleanups = [() => rmSync(folder, { recursive: true, force: true })];
  let failed = false;
  try {
    print(
      `lotline auth bench: node ${process.version}, ${availableParallelism()} CPUs (load average ` +
        `${loadavg()[0].toFixed(2)}), ${SECONDS} s per measurement, ${CONNECTIONS} connections (load from 1 worker thread)`,
    );

    const signing = await measureSigning(SECONDS);

    const bare = await bareFastify();
    cleanups.unshift(() => bare.app.close());
    const fastify = await measureHttp({ url: bare.url });
    await bare.app.close();
    cleanups.shift();

    const app = await lotline(folder);
    cleanups.unshift(() => app.close());
    cleanups.unshift(() => app.app.close());
    print(`database: ${app.dialect}${app.dialect === "sqlite" ? ` (${folder})` : ""}`);
    const tokens = await measureHttp({
      url: `${app.url}/oauth/token`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: app.tokenBody,
    });

    const response = await fetch(`${app.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: app.tokenBody,
    });
    if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
    const { access_token: token } = await response.json();
    const me = await measureHttp({ url: `${app.url}/v1/me`, headers: { authorization: `Bearer ${token}` } });

    print();
    table([
      { name: "1. RS256 SignJWT, in process (baseline)", ...signing },
      { name: "2. bare Fastify {ok:true} (baseline)", ...fastify },
      { name: "3. POST /oauth/token", ...tokens, ratio: `${(tokens.rate / signing.rate).toFixed(2)} × 1` },
      { name: "4. GET /v1/me", ...me, ratio: `${(me.rate / fastify.rate).toFixed(2)} × 2` },
    ]);
    for (const [name, result] of [
      ["bare Fastify", fastify],
      ["POST /oauth/token", tokens],
      ["GET /v1/me", me],
    ]) {
      if (result.non2xx !== 0 || result.errors !== 0) {
        failed = true;
        print(`FAILED: ${name} had ${result.non2xx} non-2xx responses and ${result.errors} errors/timeouts`);
      }
    }
    if (!failed) print("all responses 2xx, no connection errors or timeouts");
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
  if (failed) process.exitCode = 1;
}

await main();
