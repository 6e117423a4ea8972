/**
 * `npm run bench:pages`: how fast the embeddable pages show their parcel inside a host's iframe, and how much
 * script and style each page loads, beside a baseline measured in the same run on the same machine:
 *
 *   0. the same iframe, created the same way by the host page, loading /login (a page without a map) ← baseline
 *   1. new order, 2. property profile, 3. footprint selection: iframe created → parcel drawn
 *
 * Each is timed from the moment the host page creates the iframe (host side, `performance.timeOrigin +
 * performance.now()`, epoch ms) to the `lotline:parcel-drawn` performance mark inside the frame (the frame's
 * `performance.timeOrigin` + the mark's `startTime`); the baseline ends at the frame's load event. Both clocks are
 * epoch milliseconds of one machine. One warm-up load per page (its time is shown as "first"), then BENCH_RUNS
 * (default 15) measured loads. Sizes are gzip level 9 of the files each built page loads before it runs: the
 * script and styles its HTML names and every chunk those scripts import statically.
 *
 * Everything runs as the browser tests run it: Lotline (the compiled `dist`) on a loopback port with SQLite in a
 * temporary folder and the generated demo neighbourhood, the demo core system as the host on another port (another
 * origin), and Debian's Chromium through playwright-core.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { startCoreSystem } from "../examples/core-system/dist/index.js";
import { buildApp } from "../packages/server/dist/app.js";
import { loadConfig } from "../packages/server/dist/config/config.js";
import { openDatabase } from "../packages/server/dist/db/database.js";
import { migrateToLatest } from "../packages/server/dist/db/migrate.js";
import { importDemoNeighbourhood } from "../packages/server/dist/geo/import/import-demo-neighbourhood.js";
import { ADDRESS_PART_COLUMNS, addressLine } from "../packages/server/dist/geo/store/address-line.js";
import { createServices } from "../packages/server/dist/services.js";
import { createApiClient } from "../packages/server/dist/tenancy/api-clients.js";
import { addHostOrigin } from "../packages/server/dist/tenancy/host-origins.js";
import { createIframeKey } from "../packages/server/dist/tenancy/iframe-keys.js";
import { createOrganization } from "../packages/server/dist/tenancy/organizations.js";
import { createJobRunner } from "../packages/server/dist/workers/background-work.js";
import { freePort, positiveInteger, print, printTable } from "./bench-kit.js";

const RUNS = positiveInteger("BENCH_RUNS", 15);
const WEB_DIST = fileURLToPath(new URL("../packages/web/dist/", import.meta.url));
const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--enable-unsafe-swiftshader",
  "--use-angle=swiftshader",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
const PAGES = [
  { name: "new-order", html: "new-order.html" },
  { name: "property-profile", html: "property-profile.html" },
  { name: "footprint-selection", html: "footprint-selection.html" },
  { name: "login", html: "login.html" },
];

/** Lotline on a free loopback port with the demo neighbourhood, workers running, and a tenant with a host. */
async function startLotline(folder) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    LOTLINE_DATABASE_URL: `sqlite:${join(folder, "lotline.db")}`,
    PORT: String(port),
    LOTLINE_PUBLIC_URL: url,
    LOTLINE_LOG_LEVEL: "error",
  });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  await importDemoNeighbourhood(database);
  const services = await createServices(config, database);
  const app = await buildApp(services);
  const runner = createJobRunner(services);
  services.nudgeWorkers = () => runner.nudge();
  runner.start();
  await app.listen({ port, host: "127.0.0.1" });
  return {
    url,
    services,
    async close() {
      await app.close();
      await runner.stop({ timeoutMs: 5_000 });
      await database.close();
    },
  };
}

/** A completed order's property, placed through the data API, for the property profile page. */
async function completedProperty(lotline, orgId, address) {
  const client = await createApiClient(lotline.services.db, lotline.services.digester, orgId);
  const tokenResponse = await fetch(`${lotline.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience: lotline.services.config.apiAudience,
    }),
  });
  const { access_token } = await tokenResponse.json();
  const headers = { authorization: `Bearer ${access_token}`, "content-type": "application/json" };
  const placed = await fetch(`${lotline.url}/v1/orders`, {
    method: "POST",
    headers,
    body: JSON.stringify({ address }),
  });
  if (placed.status !== 202) throw new Error(`the order was refused: ${await placed.text()}`);
  const { order_id, property_id } = await placed.json();
  const deadline = Date.now() + 20_000;
  for (;;) {
    const order = await (await fetch(`${lotline.url}/v1/orders/${order_id}`, { headers })).json();
    if (order.status === "complete") return property_id;
    if (order.status !== "processing" || Date.now() > deadline) throw new Error(`order: ${JSON.stringify(order)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Creates the iframe exactly as the host page does, and answers the host-side moment it was created (epoch ms). */
function createFrame(host, url) {
  return host.evaluate((src) => {
    const frame = document.createElement("iframe");
    frame.id = "lotline-frame";
    frame.referrerPolicy = "origin";
    frame.src = src;
    const createdAt = performance.timeOrigin + performance.now();
    document.getElementById("frame-area").replaceChildren(frame);
    return createdAt;
  }, url);
}

async function currentFrame(host) {
  const element = await host.locator("#lotline-frame").elementHandle();
  return element.contentFrame();
}

/** Milliseconds from iframe creation to the parcel drawn in it. */
async function timeToParcel(host, url) {
  const createdAt = await createFrame(host, url);
  const frame = await currentFrame(host);
  await host.frameLocator("#lotline-frame").locator('html[data-parcel-drawn="true"]').waitFor({
    state: "attached",
    timeout: 60_000,
  });
  const drawnAt = await frame.evaluate(() => {
    const [mark] = performance.getEntriesByName("lotline:parcel-drawn", "mark");
    return mark ? performance.timeOrigin + mark.startTime : undefined;
  });
  if (drawnAt === undefined) throw new Error(`no lotline:parcel-drawn mark in ${url}`);
  return drawnAt - createdAt;
}

/** Milliseconds from iframe creation to the load event of a page without a map (the baseline). */
async function timeToLoad(host, url) {
  const createdAt = await createFrame(host, url);
  const frame = await currentFrame(host);
  await frame.waitForFunction(
    () => location.pathname === "/login" && (performance.getEntriesByType("navigation")[0]?.loadEventEnd ?? 0) > 0,
    undefined,
    { timeout: 30_000 },
  );
  const loadedAt = await frame.evaluate(
    () => performance.timeOrigin + performance.getEntriesByType("navigation")[0].loadEventEnd,
  );
  return loadedAt - createdAt;
}

/** One warm-up load, then `RUNS` measured ones. */
async function measure(load) {
  const first = await load();
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(await load());
  times.sort((a, b) => a - b);
  const rank = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
  return { first, median: rank(0.5), p90: rank(0.9), min: times[0], runs: RUNS };
}

const STATIC_IMPORT = /\bfrom\s*["'](\.{1,2}\/[^"']+)["']|\bimport\s*["'](\.{1,2}\/[^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g;

/**
 * The files a built page loads before it runs (the HTML's script, module preloads and styles, and every chunk
 * they import statically), and apart from those the chunks it loads only on demand (dynamic `import()`, e.g.
 * the drawing tool) with their own static imports.
 */
function pageFiles(htmlFile) {
  const html = readFileSync(join(WEB_DIST, htmlFile), "utf8");
  const entry = [];
  const css = [];
  for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) entry.push(src);
  for (const tag of html.matchAll(/<link\b[^>]*>/g)) {
    const href = tag[0].match(/\bhref="([^"]+)"/)?.[1];
    if (!href) continue;
    if (/\brel="stylesheet"/.test(tag[0])) css.push(href);
    if (/\brel="modulepreload"/.test(tag[0])) entry.push(href);
  }
  const js = importGraph(entry, new Set());
  const onDemand = new Set();
  for (const path of js) {
    const code = readFileSync(join(WEB_DIST, path), "utf8");
    for (const [, target] of code.matchAll(DYNAMIC_IMPORT)) onDemand.add(resolveChunk(path, target));
  }
  return { js: [...js], css, lazy: [...importGraph([...onDemand], js)] };
}

/** `roots` and every chunk they import statically, leaving out those in `loaded`. */
function importGraph(roots, loaded) {
  const found = new Set(roots.filter((path) => !loaded.has(path)));
  const queue = [...found];
  while (queue.length > 0) {
    const path = queue.shift();
    const code = readFileSync(join(WEB_DIST, path), "utf8");
    for (const match of code.matchAll(STATIC_IMPORT)) {
      const target = resolveChunk(path, match[1] ?? match[2]);
      if (found.has(target) || loaded.has(target)) continue;
      found.add(target);
      queue.push(target);
    }
  }
  return found;
}

const resolveChunk = (from, relative) => join(dirname(from), relative).replaceAll("\\", "/");

function gzipped(paths) {
  let raw = 0;
  let gz = 0;
  for (const path of paths) {
    const bytes = readFileSync(join(WEB_DIST, path));
    raw += bytes.length;
    gz += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gz };
}

const kb = (bytes) => (bytes / 1024).toFixed(1);

async function main() {
  const folder = mkdtempSync(join(tmpdir(), "lotline-pages-bench-"));
  const cleanups = [() => rmSync(folder, { recursive: true, force: true })];
  const watchdog = setTimeout(() => {
    print("FAILED: the bench ran over 10 minutes");
    process.exit(1);
  }, 600_000);
  watchdog.unref();
  try {
    print(
      `lotline pages bench: node ${process.version}, ${availableParallelism()} CPUs (load average ` +
        `${loadavg()[0].toFixed(2)}), ${RUNS} measured loads per page after one warm-up; Chromium headless with ` +
        "SwiftShader WebGL (software rendering)",
    );
    const lotline = await startLotline(folder);
    cleanups.unshift(() => lotline.close());
    const { db, digester } = lotline.services;
    const org = await createOrganization(db, "Bench Mutual");
    const key = await createIframeKey(db, digester, org.org_id);
    const hostPort = await freePort();
    await addHostOrigin(db, org.org_id, `http://127.0.0.1:${hostPort}`);
    const coreSystem = await startCoreSystem({
      port: hostPort,
      lotlineUrl: lotline.url,
      orgId: org.org_id,
      iframeApiKey: key.api_key,
      webhookSecret: org.webhook_secret,
    });
    cleanups.unshift(() => coreSystem.close());
    const addressRow = await db
      .selectFrom("addresses")
      .select(ADDRESS_PART_COLUMNS)
      .where("unit", "is", null)
      .where("parcel_id", "is not", null)
      .orderBy("address_id")
      .executeTakeFirstOrThrow();
    const address = addressLine(addressRow);
    const propertyId = await completedProperty(lotline, org.org_id, address);
    print(`database: sqlite (${folder}); address: ${address}; property ${propertyId}`);

    const profile = mkdtempSync(join(tmpdir(), "lotline-pages-bench-chromium-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: "/usr/bin/chromium",
      headless: false,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 1000 },
    });
    cleanups.unshift(async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    });
    const host = await context.newPage();
    await host.goto(`${coreSystem.url}/`);
    await host.locator("#open-button:enabled").waitFor();

    const token = async () => {
      const response = await fetch(`${coreSystem.url}/token`, { method: "POST" });
      if (!response.ok) throw new Error(`the host's token request failed: ${response.status}`);
      return (await response.json()).token;
    };
    const query = (params) => new URLSearchParams(params).toString();
    const base = lotline.url;
    const timings = [
      {
        name: "0. /login, no map (baseline)",
        result: await measure(async () => timeToLoad(host, `${base}/login?reason=missing`)),
      },
      {
        name: "1. new order: parcel drawn",
        result: await measure(async () =>
          timeToParcel(host, `${base}/property-profile/new-order?${query({ jwt: await token(), address })}`),
        ),
      },
      {
        name: "2. property profile: parcel drawn",
        result: await measure(async () =>
          timeToParcel(host, `${base}/property-profile/${propertyId}?${query({ jwt: await token() })}`),
        ),
      },
      {
        name: "3. footprint selection: parcel drawn",
        result: await measure(async () =>
          timeToParcel(host, `${base}/embed/footprint-selection?${query({ jwt: await token(), address })}`),
        ),
      },
    ];
    const baseline = timings[0].result.median;
    print();
    printTable(
      ["iframe created → …", "runs", "median ms", "p90 ms", "min ms", "first ms", "median vs baseline"],
      timings.map(({ name, result }, i) => [
        name,
        String(result.runs),
        result.median.toFixed(0),
        result.p90.toFixed(0),
        result.min.toFixed(0),
        result.first.toFixed(0),
        i === 0 ? "" : `${(result.median / baseline).toFixed(2)} ×`,
      ]),
    );

    print();
    const sizes = PAGES.map((page) => {
      const files = pageFiles(page.html);
      return { page: page.name, files, js: gzipped(files.js), css: gzipped(files.css), lazy: gzipped(files.lazy) };
    });
    const loginTotal = sizes.find((size) => size.page === "login");
    printTable(
      ["page (gzip -9)", "JS files", "JS KiB", "JS raw KiB", "CSS KiB", "total KiB", "vs login", "on demand KiB"],
      sizes.map((size) => {
        const total = size.js.gz + size.css.gz;
        const baseTotal = (loginTotal?.js.gz ?? 0) + (loginTotal?.css.gz ?? 0);
        return [
          size.page,
          String(size.files.js.length),
          kb(size.js.gz),
          kb(size.js.raw),
          kb(size.css.gz),
          kb(total),
          size.page === "login" ? "" : `${(total / baseTotal).toFixed(1)} ×`,
          size.files.lazy.length ? kb(size.lazy.gz) : "",
        ];
      }),
    );
    const workers = readdirAssets().filter((name) => /worker/i.test(name) && /\.m?js$/.test(name));
    for (const worker of workers) {
      const { gz } = gzipped([`/assets/${worker}`]);
      print(`+ ${worker}: ${kb(gz)} KiB gzipped, the map's web worker, fetched when a map starts (not counted above)`);
    }
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

function readdirAssets() {
  try {
    return readdirSync(join(WEB_DIST, "assets"));
  } catch {
    return [];
  }
}

await main();
