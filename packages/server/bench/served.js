/**
 * What the benchmarks that run the real `lotline serve` share: a throwaway database (a SQLite file, or a PostgreSQL
 * schema dropped afterwards) and the service in a child process running the compiled code.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { loadConfig } from "../dist/config/config.js";
import { openDatabase } from "../dist/db/database.js";
import { migrateToLatest } from "../dist/db/migrate.js";
import { importDemoNeighbourhood } from "../dist/geo/import/import-demo-neighbourhood.js";
import { createServices } from "../dist/services.js";
import { createApiClient } from "../dist/tenancy/api-clients.js";
import { createOrganization } from "../dist/tenancy/organizations.js";

const BIN = fileURLToPath(new URL("../bin/lotline.js", import.meta.url));

/** The old-generation heap cap the README recommends for `lotline serve`, MB. */
const SERVICE_HEAP_MB = 384;

/**
 * The service runs as the README asks of a deployment: its heap capped (see "Memory" there). More arguments let a
 * run profile the server: `BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=…"`.
 */
const NODE_ARGS = [
  `--max-old-space-size=${SERVICE_HEAP_MB}`,
  ...(process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean),
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A database for one run: a SQLite file in `folder`, or a fresh schema of `postgresUrl`. */
export async function prepareDatabase(folder, postgresUrl) {
  if (!postgresUrl) {
    const url = `sqlite:${join(folder, "lotline.db")}`;
    return { url, database: openDatabase(url), drop: async () => {} };
  }
  const schema = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = openDatabase(postgresUrl);
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  await admin.close();
  const url = new URL(postgresUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    url: url.href,
    database: openDatabase(postgresUrl, { searchPath: schema }),
    drop: async () => {
      const cleanup = openDatabase(postgresUrl);
      await sql`drop schema ${sql.id(schema)} cascade`.execute(cleanup.db);
      await cleanup.close();
    },
  };
}

/**
 * What every served bench starts from: a throwaway database (see {@link prepareDatabase}) migrated, with the demo
 * neighbourhood, and an organization with an API client. Its drop and close go onto `cleanups`, first to run.
 */
export async function benchTenant(folder, postgresUrl, cleanups) {
  const prepared = await prepareDatabase(folder, postgresUrl);
  cleanups.unshift(prepared.drop);
  cleanups.unshift(() => prepared.database.close());
  const { database } = prepared;
  await migrateToLatest(database);
  await importDemoNeighbourhood(database);
  const services = await createServices(loadConfig({ LOTLINE_DATABASE_URL: prepared.url }), database);
  const org = await createOrganization(services.db, "Bench Mutual");
  const client = await createApiClient(services.db, services.digester, org.org_id);
  return { url: prepared.url, database, services, org, client };
}

/**
 * `lotline serve` in a child process, with the token limits off, `env` added and `args` after its own (e.g.
 * `["--role", "worker"]`); resolves once /healthz answers.
 */
export async function serve(databaseUrl, port, env = {}, args = []) {
  const child = spawn(process.execPath, [...NODE_ARGS, BIN, "serve", "--port", String(port), ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      LOTLINE_DATABASE_URL: databaseUrl,
      LOTLINE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOTLINE_LOG_LEVEL: "error",
      // Passed through, so that a run can measure order threads (see the README's Performance).
      ...(process.env.LOTLINE_ORDER_THREADS ? { LOTLINE_ORDER_THREADS: process.env.LOTLINE_ORDER_THREADS } : {}),
      LOTLINE_TOKEN_SOFT_LIMIT_HOUR: "0",
      LOTLINE_TOKEN_HARD_LIMIT_HOUR: "0",
      LOTLINE_TOKEN_SOFT_LIMIT_DAY: "0",
      LOTLINE_TOKEN_HARD_LIMIT_DAY: "0",
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`lotline serve did not come up: ${stderr}`);
    await sleep(50);
  }
}

/** Stops a child started by {@link serve} and waits until it has exited. */
export async function stop(child) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** A data API token for `client` from the service at `base`. */
export async function accessToken(base, client) {
  const response = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience: `${base}/v1`,
    }),
  });
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return (await response.json()).access_token;
}

/** The CPU time (user and system) a process has used so far, in seconds: Linux's /proc, in clock ticks of 10 ms. */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** How many orders of the database are still processing. */
export async function ordersProcessing(db) {
  const { n } = await db
    .selectFrom("orders")
    .select(sql`count(*)`.as("n"))
    .where("status", "=", "processing")
    .executeTakeFirstOrThrow();
  return Number(n);
}
