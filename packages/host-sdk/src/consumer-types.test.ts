import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Its types check in a consumer project: a project outside the repository, with `@lotline/host-sdk` alone in its
 * node_modules as a link to this package (its package.json `exports` and built `dist/`, as npm would install it;
 * no `@lotline/contract`, which the published SDK does without), compiled by the repository's TypeScript under
 * strict settings with both resolution modes a consumer is likely to use. `dist/` must be built (`npm run build`).
 * packaging/packed-sdk.test.ts installs the packed tarball itself.
 */

const PACKAGES = fileURLToPath(new URL("../../", import.meta.url));
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const TSC = createRequire(join(ROOT, "package.json")).resolve("typescript/bin/tsc");

/** Uses the public API of both entry points; must compile without an error. */
const CONSUMER = `import { type FetchToken, type MountHandle, mount, type ServiceMessage } from "@lotline/host-sdk/browser";
import {
  type ApiClient,
  ApiError,
  createApiClient,
  createTokenProvider,
  fetchIframeToken,
  type PropertyRecord,
  type TokenStore,
  verifyWebhook,
} from "@lotline/host-sdk/server";

declare const store: TokenStore;
const tokens = createTokenProvider({ tokenUrl: "https://l.example", clientId: "c", clientSecret: "s", audience: "a", store });
export const api: ApiClient = createApiClient({ baseUrl: "https://l.example", tokens });

export async function order(): Promise<number> {
  const placed = await api.createOrder({ address: "1 Main St", external_id: "POL-1" }, { idempotencyKey: "tx-1" });
  const orderId: string = placed.order_id;
  const current = await api.getOrder(orderId);
  const status: "processing" | "complete" | "failed" = current.status;
  const property: PropertyRecord = await api.getProperty(placed.property_id);
  const id: number = property.property_id;
  return status === "complete" ? id + property.buildings.length : 0;
}

export function isMissing(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.code.length > 0;
}

export async function iframeToken(): Promise<{ token: string; expiresIn: number }> {
  const { token, expiresIn, expires } = await fetchIframeToken({ iframeAuthUrl: "https://l.example", orgId: "o", iframeApiKey: "k" });
  return { token: token + expires.slice(0, 0), expiresIn };
}

export function webhookPropertyId(headers: Record<string, string>, body: Uint8Array): number | undefined {
  const event = verifyWebhook({ secret: "whsec_AAAA", headers, body });
  if (event.type === "order.complete") return event.data.property_id;
  if (event.type === "order.failed") return event.data.reason.length;
  if (event.type === "order-batch.complete") return event.data.complete + event.data.failed;
  if (event.type === "event.impacted") return event.data.impacted_properties;
  if (event.type === "property.changed") return event.data.changes.filter((change) => change.after === null).length;
  return event.data.buildings.length;
}

export async function book(csv: AsyncIterable<Uint8Array>): Promise<number> {
  const placed = await api.createOrderBatch({ csv, name: "Renewals", callback_url: "https://core.example/hook" });
  const fromJson = await api.createOrderBatch({ orders: [{ address: "1 Main St", external_id: "POL-1" }] });
  const batch = await api.getOrderBatch(placed.batch_id);
  const pending: number = batch.processing + fromJson.rejections.length;
  let complete = 0;
  for await (const result of api.orderBatchResults(placed.batch_id)) {
    const status: "rejected" | "processing" | "complete" | "failed" = result.status;
    if (status === "complete") complete += result.property_id ?? 0;
  }
  return pending + complete;
}

const fetchToken: FetchToken = async () => ({ token: "jwt", expiresIn: 3600 });

export function show(container: HTMLElement): MountHandle {
  const handle = mount({ container, page: "property-profile", params: { property_id: 42 }, lotlineUrl: "https://l.example", fetchToken });
  handle.on("service-order-complete", (m) => console.log(m.property_id.toFixed(0)));
  handle.on("service-error", (m) => console.log(m.message, m.property_id ?? "none"));
  handle.on("session-expiring", ({ msLeft, threshold }) => console.log(msLeft - threshold));
  const left: number | null = handle.timeLeft();
  const message: ServiceMessage = { type: "service-footprint-submitted", address: String(left) };
  console.log(message);
  return handle;
}
`;

/** One line that must not compile: the complete message has no `address`. */
const WRONG = `import type { MountHandle } from "@lotline/host-sdk/browser";

export function wrong(handle: MountHandle): void {
  handle.on("service-order-complete", (m) => console.log(m.address));
}
`;

const EXPECTED_ERROR =
  /^wrong\.ts\(4,60\): error TS2339: Property 'address' does not exist on type 'OrderCompleteMessage'\.$/;

let project: string;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "lotline-consumer-"));
  await mkdir(join(project, "node_modules", "@lotline"), { recursive: true });
  await mkdir(join(project, "node_modules", "@types"), { recursive: true });
  await symlink(join(PACKAGES, "host-sdk"), join(project, "node_modules", "@lotline", "host-sdk"), "dir");
  await symlink(join(ROOT, "node_modules", "@types", "node"), join(project, "node_modules", "@types", "node"), "dir");
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module", dependencies: { "@lotline/host-sdk": "*" } }),
  );
  await writeFile(join(project, "consumer.ts"), CONSUMER);
  await writeFile(join(project, "wrong.ts"), WRONG);
});

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

/** Runs the repository's tsc on the consumer project with one tsconfig; returns its diagnostics, one a line. */
async function typeCheck(module: string, moduleResolution: string, files: string[]): Promise<string[]> {
  const tsconfig = `tsconfig.${moduleResolution.toLowerCase()}.json`;
  await writeFile(
    join(project, tsconfig),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2023", "DOM"],
        module,
        moduleResolution,
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ["node"],
      },
      files,
    }),
  );
  const result = spawnSync(process.execPath, [TSC, "-p", tsconfig, "--pretty", "false"], {
    cwd: project,
    encoding: "utf8",
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return `${result.stdout}${result.stderr}`.split("\n").filter((line) => line.trim() !== "");
}

describe.each([
  ["NodeNext", "NodeNext"],
  ["ESNext", "Bundler"],
])("its types check in a consumer project (module %s, moduleResolution %s)", (module, moduleResolution) => {
  it("compiles a consumer of both entry points and reports exactly the one wrong line", async () => {
    // consumer.ts compiles cleanly, so the only diagnostic is the wrong line's.
    const errors = await typeCheck(module, moduleResolution, ["consumer.ts", "wrong.ts"]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(EXPECTED_ERROR);
  }, 60_000);
});
