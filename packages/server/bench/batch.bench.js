/**
 * `npm run bench:batch`: a whole book as one CSV order batch against the real `lotline serve` — how fast it is taken
 * in, how fast its orders settle, how much memory the server needs for it, whether single orders placed meanwhile
 * still complete in good time, and how fast its results stream back. Each figure stands next to a baseline measured
 * in the same run on the same machine.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { freePort, positiveInteger, print, printTable } from "../../../scripts/bench-kit.js";
import { ADDRESS_PART_COLUMNS, addressLine } from "../dist/geo/store/address-line.js";
import { addCallbackPrefix } from "../dist/tenancy/callback-prefixes.js";
import { accessToken, benchTenant, ordersProcessing, serve, stop } from "./served.js";

const ROWS = positiveInteger("BENCH_BATCH_ROWS", 100_000);
const CAP_MS = positiveInteger("BENCH_BATCH_MINUTES", 30) * 60_000;
/** Single orders placed on an idle server: the latency the ones placed during the batch are compared with. */
const IDLE_ORDERS = positiveInteger("BENCH_BATCH_IDLE_ORDERS", 50);
/** Single orders placed as fast as 10 connections go: the processing rate the batch's is compared with. */
const BASELINE_ORDERS = positiveInteger("BENCH_BATCH_BASELINE_ORDERS", 200);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;

/** A steady trickle, as an integrator's live quoting sends beside a book being loaded. */
const SINGLE_ORDERS_PER_SECOND = 5;
const CONCURRENCY = 10;
const POLL_MS = 500;
const PROGRESS_MS = 10_000;
/** How long orders placed near the end of a phase get to deliver their webhook. */
const SETTLE_MS = 120_000;
const ROWS_PER_CHUNK = 500;
/** One row in ten is located by coordinates, as a book of already-geocoded risks has some. */
const LAT_LON_EVERY = 10;
const RSS_TARGET_MB = 512;
const FAIRNESS_TARGET = 2;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (from, to) => (to - from) / 1000;

/** The run went past `BENCH_BATCH_MINUTES`: what was measured so far is reported, and the run fails. */
class CapReached extends Error {}

/** Throws {@link CapReached} once `deadline` has passed. */
function checkDeadline(deadline, what) {
  if (performance.now() > deadline) {
    throw new CapReached(`BENCH_BATCH_MINUTES=${CAP_MS / 60_000} reached while ${what}`);
  }
}

/** Prints `describe()` every `PROGRESS_MS` until stopped, so a long run shows it is alive. */
function heartbeat(startedAt, describe) {
  const timer = setInterval(
    () => print(`  [${seconds(startedAt, performance.now()).toFixed(0)} s] ${describe()}`),
    PROGRESS_MS,
  );
  return () => clearInterval(timer);
}

// ---------------------------------------------------------------------------------------------------------------
// The book

const CSV_HEADER = "external_id,address,lat,lon,insured_name,renewal_date,premium_amount,agent_code,branch,notes\r\n";
const BRANCHES = ["North", "Harbour", "Riverside"];

/** Row `n` (1-based) of the book: mostly addresses, some coordinates, policy fields and columns no order reads. */
function csvRow(n, places) {
  const place = places[(n - 1) % places.length];
  const location = n % LAT_LON_EVERY === 0 ? `,${place.lat},${place.lon}` : `"${place.display}",,`;
  const renewal = `2027-${String((n % 12) + 1).padStart(2, "0")}-${String((n % 28) + 1).padStart(2, "0")}`;
  const premium = (400 + ((n * 37) % 2600)).toFixed(2);
  const notes = n % 7 === 0 ? '"renewal, no claims"' : "";
  return (
    `POL-${String(n).padStart(6, "0")},${location},Insured ${n},${renewal},${premium},` +
    `A-${n % 97},${BRANCHES[n % BRANCHES.length]},${notes}\r\n`
  );
}

/** The book as chunks of `ROWS_PER_CHUNK` rows, made as they are read: never the whole file in memory. */
function* csvChunks(places, rows, sent) {
  yield Buffer.from(CSV_HEADER);
  for (let first = 1; first <= rows; first += ROWS_PER_CHUNK) {
    let chunk = "";
    const last = Math.min(rows, first + ROWS_PER_CHUNK - 1);
    for (let n = first; n <= last; n++) chunk += csvRow(n, places);
    sent.rows = last;
    yield Buffer.from(chunk);
  }
}

/**
 * POSTs `chunks` as a streamed body (node:http, so no client timeout cuts a long intake short). Answers the status,
 * the body, when the first byte went out and when the answer's headers came back.
 */
function postStream(url, headers, chunks, deadline) {
  return new Promise((resolve, reject) => {
    const timing = { firstByteAt: 0, answeredAt: 0 };
    const source = Readable.from(
      (function* () {
        for (const chunk of chunks) {
          timing.firstByteAt ||= performance.now();
          yield chunk;
        }
      })(),
    );
    const timer = setTimeout(
      () => request.destroy(new CapReached(`BENCH_BATCH_MINUTES=${CAP_MS / 60_000} reached while uploading`)),
      Math.max(0, deadline - performance.now()),
    );
    const request = httpRequest(
      url,
      { method: "POST", headers: { "content-type": "text/csv", ...headers } },
      (response) => {
        timing.answeredAt = performance.now();
        const parts = [];
        response.on("data", (part) => parts.push(part));
        response.on("error", reject);
        response.on("end", () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode, text: Buffer.concat(parts).toString("utf8"), ...timing });
        });
      },
    );
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    source.pipe(request);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Loopback servers of the bench

/** Takes any upload whole and answers 204: the baseline of streaming the book over loopback. */
async function sink() {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(204).end());
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/upload` };
}

/** Notes when each order's first webhook arrived (`received`: order id → time); answers 204. */
async function webhookReceiver() {
  const received = new Map();
  const server = createServer((request, response) => {
    const parts = [];
    request.on("data", (part) => parts.push(part));
    request.on("end", () => {
      const at = performance.now();
      try {
        const orderId = JSON.parse(Buffer.concat(parts).toString("utf8")).data?.order_id;
        if (orderId && !received.has(orderId)) received.set(orderId, at);
      } catch {
        // not an order webhook
      }
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, received, url: `http://127.0.0.1:${server.address().port}/hooks/` };
}

// ---------------------------------------------------------------------------------------------------------------
// The server's memory

/** The `Vm*` lines of /proc/<pid>/status in MB, or undefined where there is no /proc (not Linux). */
function procMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const megabytes = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1]) / 1024;
    return { rss: megabytes("VmRSS"), hwm: megabytes("VmHWM") };
  } catch {
    return undefined;
  }
}

/** Samples the server's resident memory every `POLL_MS` for the whole run. */
function memoryWatch(pid) {
  const watch = { atStart: procMemory(pid)?.rss, maxSampled: 0, peak: undefined };
  const timer = setInterval(() => {
    const now = procMemory(pid);
    if (now) watch.maxSampled = Math.max(watch.maxSampled, now.rss);
  }, POLL_MS);
  watch.finish = () => {
    clearInterval(timer);
    watch.peak = procMemory(pid)?.hwm;
  };
  return watch;
}

// ---------------------------------------------------------------------------------------------------------------
// Single orders

async function placeOrder(base, token, body) {
  const response = await fetch(`${base}/v1/orders`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return response.status === 202 ? JSON.parse(text).order_id : undefined;
}

/** The order `i` of the single orders tagged `tag`: an address of its own among the demo ones, its own policy. */
function singleOrder(places, tag, i, offset) {
  return {
    address: places[(offset + i) % places.length].display,
    external_id: `${tag}-${String(i + 1).padStart(5, "0")}`,
  };
}

/** The baseline of processing: `BASELINE_ORDERS` single orders, 10 in flight, until none is processing. */
async function singleOrderThroughput({ base, token, places, database, deadline }) {
  const { db } = database;
  let next = 0;
  let non2xx = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < BASELINE_ORDERS) {
        const i = next++;
        if (!(await placeOrder(base, token, singleOrder(places, "BASE", i, 0)))) non2xx += 1;
      }
    }),
  );
  while ((await ordersProcessing(db)) > 0) {
    checkDeadline(deadline, "the baseline single orders were processing");
    await sleep(100);
  }
  return {
    rate: BASELINE_ORDERS / seconds(started, performance.now()),
    seconds: seconds(started, performance.now()),
    non2xx,
  };
}

/**
 * Places single orders with a callback at `SINGLE_ORDERS_PER_SECOND`, `count` of them or for as long as
 * `keepGoing()` says; answers each placed order's id → when it was sent.
 */
async function steadyOrders({ base, token, places, hooksUrl, tag, offset, count, keepGoing, deadline }) {
  const placed = new Map();
  const sending = [];
  let non2xx = 0;
  const started = performance.now();
  for (let i = 0; count === undefined ? keepGoing() : i < count; i++) {
    await sleep(Math.max(0, started + (i * 1000) / SINGLE_ORDERS_PER_SECOND - performance.now()));
    if (performance.now() > deadline) break;
    const sentAt = performance.now();
    const body = { ...singleOrder(places, tag, i, offset), callback_url: `${hooksUrl}${tag}` };
    sending.push(
      placeOrder(base, token, body).then((orderId) => {
        if (orderId) placed.set(orderId, { sentAt, answeredAt: performance.now() });
        else non2xx += 1;
      }),
    );
  }
  await Promise.all(sending);
  return { placed, non2xx };
}

/** Waits until every placed order's webhook arrived, at most `SETTLE_MS` (and never past the deadline). */
async function awaitWebhooks(placed, received, deadline) {
  const until = Math.min(deadline, performance.now() + SETTLE_MS);
  const missing = () => [...placed.keys()].filter((orderId) => !received.has(orderId)).length;
  while (missing() > 0 && performance.now() < until) await sleep(100);
  return missing();
}

/**
 * p50 and p99 of placed → webhook received, over the orders whose webhook came; `accepted`: of placed → 202, which
 * tells a server too busy to answer from one slow to process.
 */
function latencies(placed, received) {
  const arrived = [...placed].filter(([orderId]) => received.has(orderId));
  return {
    ...percentiles(arrived.map(([orderId, { sentAt }]) => received.get(orderId) - sentAt)),
    missing: placed.size - arrived.length,
    accepted: percentiles([...placed.values()].map(({ sentAt, answeredAt }) => answeredAt - sentAt)),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The batch

/** Streams the book to `POST /v1/order-batches`; answers the 202's body and the intake's timing. */
async function sendBatch({ base, token, places, deadline, startedAt, measured }) {
  const sent = { rows: 0 };
  const stopBeat = heartbeat(startedAt, () => `intake: ${sent.rows}/${ROWS} rows sent`);
  try {
    const upload = await postStream(
      `${base}/v1/order-batches?name=bench-book`,
      { authorization: `Bearer ${token}` },
      csvChunks(places, ROWS, sent),
      deadline,
    );
    if (upload.status !== 202) throw new Error(`the batch was answered ${upload.status}: ${upload.text}`);
    const accepted = JSON.parse(upload.text);
    measured.intake = { ...upload, accepted, seconds: seconds(upload.firstByteAt, upload.answeredAt) };
    return accepted;
  } finally {
    stopBeat();
  }
}

async function getJson(url, token) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * Polls the batch every `POLL_MS` until it is complete; `measured.processing` always holds the latest count and
 * `measured.polls` how long each poll took to answer: a server too busy to answer shows here first.
 */
async function awaitBatch({ base, token, batchId, acceptedAt, deadline, startedAt, measured, memory }) {
  let batch;
  const polls = [];
  measured.polls = polls;
  const progress = () => {
    if (!batch) return `processing: waiting for the first GET of the batch to answer`;
    const settled = batch.complete + batch.failed;
    const rate = settled / Math.max(0.001, seconds(acceptedAt, performance.now()));
    return `processing: ${settled}/${batch.accepted} settled (${rate.toFixed(1)} orders/s), server RSS up to ${memory.maxSampled.toFixed(0)} MB`;
  };
  const stopBeat = heartbeat(startedAt, progress);
  try {
    for (;;) {
      const asked = performance.now();
      batch = await getJson(`${base}/v1/order-batches/${batchId}`, token);
      polls.push(performance.now() - asked);
      measured.processing = { batch, seconds: seconds(acceptedAt, performance.now()) };
      if (batch.status === "complete") return batch;
      checkDeadline(deadline, `the batch was processing (${progress()})`);
      await sleep(POLL_MS);
    }
  } finally {
    stopBeat();
  }
}

/** The baseline of a poll: the same GET of the batch, answered by a server with nothing left to do. */
async function idlePolls({ base, token, batchId }) {
  const polls = [];
  for (let i = 0; i < 20; i++) {
    const asked = performance.now();
    await getJson(`${base}/v1/order-batches/${batchId}`, token);
    polls.push(performance.now() - asked);
  }
  return polls;
}

/** p50 and p99 of `durations` (ms). */
function percentiles(durations) {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), count: sorted.length };
}

/** Reads every result line (NDJSON) without parsing them; answers how many there were and how long it took. */
async function readResults({ base, token, batchId, deadline }) {
  const started = performance.now();
  const response = await fetch(`${base}/v1/order-batches/${batchId}/results`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(Math.max(1, Math.floor(deadline - started))),
  });
  if (response.status !== 200) throw new Error(`results: ${response.status} ${await response.text()}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
  }
  return { lines, bytes, seconds: seconds(started, performance.now()) };
}

// ---------------------------------------------------------------------------------------------------------------
// The report

function report(measured) {
  const rows = [];
  const add = (name, row) => rows.push({ name, ...row });
  const { raw, intake, throughput, processing, idle, during, results } = measured;
  if (raw)
    add("1. CSV streamed to a loopback sink (baseline)", {
      rate: ROWS / raw.seconds,
      count: ROWS,
      seconds: raw.seconds,
    });
  if (intake) {
    add("2. intake: first byte sent → 202", {
      rate: ROWS / intake.seconds,
      count: ROWS,
      seconds: intake.seconds,
      ratio: raw ? `${(ROWS / intake.seconds / (ROWS / raw.seconds)).toFixed(3)} × 1` : "",
    });
  }
  if (throughput) {
    add("3. single orders settled, 10 in flight (baseline)", {
      rate: throughput.rate,
      count: BASELINE_ORDERS,
      seconds: throughput.seconds,
    });
  }
  if (processing) {
    const settled = processing.batch.complete + processing.batch.failed;
    const rate = settled / processing.seconds;
    add(`4. batch orders settled: 202 → complete${processing.batch.status === "complete" ? "" : " (UNFINISHED)"}`, {
      rate,
      count: settled,
      seconds: processing.seconds,
      ratio: throughput ? `${(rate / throughput.rate).toFixed(3)} × 3` : "",
    });
  }
  if (idle) add(`5. single orders at ${SINGLE_ORDERS_PER_SECOND}/s, idle: placed → webhook (baseline)`, idle);
  if (during) {
    add(`6. single orders at ${SINGLE_ORDERS_PER_SECOND}/s during the batch`, {
      ...during,
      ratio: idle ? `p50 ${(during.p50 / idle.p50).toFixed(2)} × 5, p99 ${(during.p99 / idle.p99).toFixed(2)} × 5` : "",
    });
  }
  if (results) {
    add("7. results read back (NDJSON)", {
      rate: results.lines / results.seconds,
      count: results.lines,
      seconds: results.seconds,
      ratio: raw ? `${(results.lines / results.seconds / (ROWS / raw.seconds)).toFixed(3)} × 1` : "",
    });
  }
  if (measured.idlePolls) add("8. GET of the batch, idle (baseline)", percentiles(measured.idlePolls));
  if (measured.polls?.length) {
    const busy = percentiles(measured.polls);
    const idlePoll = measured.idlePolls && percentiles(measured.idlePolls);
    add("9. GET of the batch while it processed", {
      ...busy,
      ratio: idlePoll
        ? `p50 ${(busy.p50 / idlePoll.p50).toFixed(2)} × 8, p99 ${(busy.p99 / idlePoll.p99).toFixed(2)} × 8`
        : "",
    });
  }
  const header = ["measurement", "rate/s", "p50 ms", "p99 ms", "count", "seconds", "vs baseline"];
  printTable(
    header,
    rows.map((row) => [
      row.name,
      row.rate === undefined ? "" : row.rate.toFixed(1),
      row.p50 === undefined ? "" : row.p50.toFixed(1),
      row.p99 === undefined ? "" : row.p99.toFixed(1),
      row.missing ? `${row.count} (+${row.missing} no webhook)` : String(row.count),
      row.seconds === undefined ? "" : row.seconds.toFixed(2),
      row.ratio ?? "",
    ]),
  );
}

function verdict(met) {
  return met ? "met" : "MISSED";
}

function reportTargets(measured, memory) {
  print();
  const { intake, processing, idle, during, results } = measured;
  if (intake) {
    const { accepted } = intake;
    print(
      `batch: ${accepted.rows} rows, ${accepted.accepted} accepted, ${accepted.rejected} rejected; ignored columns: ` +
        `${accepted.ignored_columns.join(", ") || "none"}`,
    );
  }
  if (processing) print(`batch orders: ${processing.batch.complete} complete, ${processing.batch.failed} failed`);
  if (results) print(`results: ${results.lines} lines, ${(results.bytes / 1024 / 1024).toFixed(1)} MB`);
  if (memory.peak === undefined) print("server memory: no /proc here, not measured");
  else {
    print(
      `server memory: ${memory.atStart?.toFixed(0)} MB RSS after start (baseline), sampled up to ` +
        `${memory.maxSampled.toFixed(0)} MB, peak (VmHWM) ${memory.peak.toFixed(0)} MB — ` +
        `${(memory.peak / memory.atStart).toFixed(2)} × the baseline; target ≤ ${RSS_TARGET_MB} MB: ` +
        verdict(memory.peak <= RSS_TARGET_MB),
    );
  }
  if (idle && during) {
    const worst = during.p99 / idle.p99;
    print(
      `fairness: single orders' p99 during the batch ${worst.toFixed(2)} × idle (p50 ${(during.p50 / idle.p50).toFixed(2)} ×); ` +
        `target ≤ ${FAIRNESS_TARGET} ×: ${verdict(worst <= FAIRNESS_TARGET && during.missing === 0)}` +
        (during.missing ? ` (${during.missing} orders placed during the batch got no webhook)` : ""),
    );
    print(
      `single orders' POST → 202: p50 ${during.accepted.p50.toFixed(1)} ms, p99 ${during.accepted.p99.toFixed(1)} ms ` +
        `during the batch; idle p50 ${idle.accepted.p50.toFixed(1)} ms, p99 ${idle.accepted.p99.toFixed(1)} ms`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const startedAt = performance.now();
  const deadline = startedAt + CAP_MS;
  const folder = mkdtempSync(join(tmpdir(), "lotline-bench-"));
  const cleanups = [() => rmSync(folder, { recursive: true, force: true })];
  const measured = {};
  let child;
  let memory = { maxSampled: 0, finish: () => {} };
  let failure;
  // Past the cap and a grace for the report, something hangs: stop the server and fail rather than wait on.
  const watchdog = setTimeout(
    () => {
      print(`FAILED: the bench hung past BENCH_BATCH_MINUTES=${CAP_MS / 60_000}`);
      child?.kill("SIGKILL");
      process.exit(1);
    },
    CAP_MS + 3 * SETTLE_MS,
  );
  watchdog.unref();
  try {
    print(
      `lotline batch bench: node ${process.version}, ${availableParallelism()} CPUs (load average ` +
        `${loadavg()[0].toFixed(2)}), ${ROWS} CSV rows, single orders at ${SINGLE_ORDERS_PER_SECOND}/s ` +
        `(${IDLE_ORDERS} idle first), at most ${CAP_MS / 60_000} min; server: \`lotline serve\` as a child process`,
    );
    const prepared = await benchTenant(folder, DATABASE_URL, cleanups);
    const { database, services, org, client } = prepared;
    const hooks = await webhookReceiver();
    cleanups.unshift(() => new Promise((resolve) => hooks.server.close(resolve)));
    await addCallbackPrefix(services.db, org.org_id, hooks.url);
    const places = (
      await database.db
        .selectFrom("addresses")
        .select([...ADDRESS_PART_COLUMNS, "lat", "lon"])
        .where("unit", "is", null)
        .orderBy("address_id")
        .execute()
    ).map((row) => ({ display: addressLine(row), lat: row.lat, lon: row.lon }));
    print(
      `database: ${database.dialect}${database.dialect === "sqlite" ? ` (${folder})` : ""}, ${places.length} demo addresses`,
    );

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = await serve(prepared.url, port, { LOTLINE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1" });
    cleanups.unshift(() => stop(child));
    memory = memoryWatch(child.pid);
    const token = await accessToken(base, client);

    try {
      // 1. The baseline of the upload: the same book streamed to a server that only reads it.
      const loopback = await sink();
      const rawUpload = await postStream(loopback.url, {}, csvChunks(places, ROWS, {}), deadline);
      await new Promise((resolve) => loopback.server.close(resolve));
      measured.raw = { seconds: seconds(rawUpload.firstByteAt, rawUpload.answeredAt) };

      // 3. and 5. The baselines of processing and of a single order's latency, on an idle server.
      print("baseline: single orders, 10 in flight …");
      measured.throughput = await singleOrderThroughput({ base, token, places, database, deadline });
      print(`baseline: ${IDLE_ORDERS} single orders at ${SINGLE_ORDERS_PER_SECOND}/s with a webhook …`);
      const idle = await steadyOrders({
        base,
        token,
        places,
        hooksUrl: hooks.url,
        tag: "IDLE",
        offset: 0,
        count: IDLE_ORDERS,
        deadline,
      });
      const idleMissing = await awaitWebhooks(idle.placed, hooks.received, deadline);
      if (idleMissing)
        throw new Error(`${idleMissing} of the idle single orders got no webhook in ${SETTLE_MS / 1000} s`);
      measured.idle = latencies(idle.placed, hooks.received);
      measured.non2xx = idle.non2xx + measured.throughput.non2xx;

      // 2., 4. and 6. The batch, with single orders trickling in from its first byte until it is complete.
      print(`batch: streaming ${ROWS} rows …`);
      let batchRunning = true;
      const duringOrders = steadyOrders({
        base,
        token,
        places,
        hooksUrl: hooks.url,
        tag: "DURING",
        offset: IDLE_ORDERS,
        keepGoing: () => batchRunning,
        deadline,
      });
      let batch;
      try {
        const accepted = await sendBatch({ base, token, places, deadline, startedAt, measured });
        print(`batch: accepted after ${measured.intake.seconds.toFixed(1)} s, processing …`);
        batch = await awaitBatch({
          base,
          token,
          batchId: accepted.batch_id,
          acceptedAt: measured.intake.answeredAt,
          deadline,
          startedAt,
          measured,
          memory,
        });
      } finally {
        batchRunning = false;
        const during = await duringOrders;
        measured.non2xx = (measured.non2xx ?? 0) + during.non2xx;
        await awaitWebhooks(during.placed, hooks.received, deadline);
        measured.during = latencies(during.placed, hooks.received);
      }

      // 8. The baseline of a poll, now that the server is idle again.
      measured.idlePolls = await idlePolls({ base, token, batchId: batch.batch_id });

      // 7. The results, whole.
      print("results: reading …");
      measured.results = await readResults({ base, token, batchId: batch.batch_id, deadline });
      if (measured.results.lines !== ROWS) {
        throw new Error(`expected ${ROWS} result lines, read ${measured.results.lines}`);
      }
    } finally {
      memory.finish();
    }
  } catch (error) {
    failure = error;
  } finally {
    print();
    report(measured);
    reportTargets(measured, memory);
    for (const cleanup of cleanups) await cleanup();
  }
  if (failure instanceof CapReached)
    print(`FAILED: ${failure.message}; the figures above are what was measured by then`);
  else if (failure) {
    print("FAILED:");
    print(failure.stack ?? String(failure));
  } else if (measured.non2xx) print(`FAILED: ${measured.non2xx} single orders were not answered 202`);
  else print("all orders answered 202, the batch completed and every result line was read");
  if (failure || measured.non2xx) process.exitCode = 1;
}

await main();
