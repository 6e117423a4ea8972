import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../server/test-loopback.js";
import { startTestServer, type TestServer } from "../server/test-server.js";
import {
  addSources,
  compile,
  installTarball,
  listFiles,
  type Output,
  packSdk,
  readJson,
  run,
  succeeded,
} from "./test-consumer-project.js";
import type { RoundTrip } from "./test-round-trip.js";

/**
 * `@lotline/host-sdk` as an integrator gets it: packed with `npm pack`, installed from the tarball into a fresh
 * project in the OS's temporary folder, offline and with an empty npm cache (so it must need nothing from a
 * registry), the integration guide's snippets compiled against the installed package, and a round trip — token,
 * order, signed webhook — run by `node` in that project against a real listening Lotline.
 *
 * It packs the built `dist/` (`npm test` builds it first). The vitest config runs it in the sqlite project only:
 * packaging does not depend on the database, and once is enough.
 */

const SDK = join("node_modules", "@lotline", "host-sdk");

describe("the packed SDK installed in a fresh project", () => {
  let folder: string;
  let project: string;
  let installed: Output;
  let snippets: string[];
  let compiled: Output;
  let server: TestServer;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "lotline-packed-sdk-"));
    project = join(folder, "core-system");
    // The service starts while npm works: both take a few seconds.
    const started = startTestServer({ listen: true, demo: true });
    const tarball = await packSdk(folder);
    installed = await installTarball(project, tarball, join(folder, "npm-cache"));
    if (installed.code === 0) {
      snippets = await addSources(project);
      compiled = await compile(project);
    }
    server = await started;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("installs offline from the tarball alone: no dependency, nothing else in node_modules", async () => {
    succeeded("npm install of the tarball", installed);
    const manifest = await readJson(join(project, SDK, "package.json"));
    expect(manifest.name).toBe("@lotline/host-sdk");
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.peerDependencies).toBeUndefined();
    const lock = await readJson(join(project, "package-lock.json"));
    expect(Object.keys(lock.packages as object).sort()).toEqual(["", SDK]);
  });

  it("ships its entry points and no import of @lotline/contract, in its JavaScript or its types", async () => {
    const files = await listFiles(join(project, SDK));
    for (const entry of ["dist/server/index.js", "dist/server/index.d.ts", "dist/browser/index.js"]) {
      expect(files).toContain(entry);
    }
    expect(files).toContain("dist/browser/index.d.ts");
    expect(files).toContain("dist/bundle/lotline-host-sdk.js");
    expect(files.filter((file) => /\.test\.|(^|\/)test-/.test(file))).toEqual([]);
    const importsContract = /(from\s*|import\(\s*|require\(\s*)["']@lotline\/contract/;
    for (const file of files.filter((name) => /\.(js|d\.ts)$/.test(name))) {
      const text = await readFile(join(project, SDK, file), "utf8");
      expect(importsContract.test(text), `${file} imports @lotline/contract`).toBe(false);
    }
  });

  it("compiles the integration guide's snippets against the installed package, strictly, with its .d.ts checked", () => {
    succeeded("npm install of the tarball", installed);
    expect(snippets.length).toBeGreaterThanOrEqual(6);
    expect(snippets).toContain("mount-page.ts");
    expect(snippets).toContain("verify-webhook-endpoint.ts");
    // Diagnostics are printed on stdout; the exit code alone would hide which line failed.
    expect(`${compiled.stdout}${compiled.stderr}`.trim()).toBe("");
    expect(compiled.code).toBe(0);
  });

  it("gets a token, places an order and verifies its signed webhook with the installed SDK in a child node", async () => {
    const port = await freePort();
    await server.addCallbackPrefix(`http://127.0.0.1:${port}/hooks/`);
    const { tenant } = server;
    const output = await run(process.execPath, [join("out", "round-trip.js")], {
      cwd: project,
      timeoutMs: 60_000,
      env: {
        LOTLINE_URL: server.url,
        LOTLINE_CLIENT_ID: tenant.clientId,
        LOTLINE_CLIENT_SECRET: tenant.clientSecret,
        LOTLINE_AUDIENCE: server.audience,
        LOTLINE_WEBHOOK_SECRET: tenant.webhookSecret,
        ROUND_TRIP_ADDRESS: await server.demoAddress(0),
        ROUND_TRIP_CALLBACK_PORT: String(port),
      },
    });
    succeeded("the round trip", output);
    const result = JSON.parse(output.stdout.trim().split("\n").at(-1) ?? "") as RoundTrip;
    expect(result.tokenParts).toBe(3);
    expect(JSON.stringify(result.me)).toContain(tenant.orgId);
    expect(result.event.type).toBe("order.complete");
    expect(result.event.data).toMatchObject({
      order_id: result.orderId,
      property_id: result.propertyId,
      status: "complete",
      external_id: "POL-PACKED-1",
    });
    expect(result.tamperedCode).toBe("bad_signature");
  }, 60_000);
});
