import { request } from "node:http";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyIframeToken } from "../../../packages/server/src/auth/tokens/iframe-token.js";
import {
  createTenant,
  createTestApp,
  freePort,
  type TestApp,
  type TestTenant,
} from "../../../packages/server/src/test/test-app.js";
import { type RunningCoreSystem, startCoreSystem } from "./start-core-system.js";

describe("the demo core system's server", () => {
  let lotline: TestApp;
  let tenant: TestTenant;
  let core: RunningCoreSystem;
  let wrongKey: RunningCoreSystem;

  beforeAll(async () => {
    lotline = await createTestApp({}, { listen: true });
    tenant = await createTenant(lotline.services);
    const options = {
      lotlineUrl: lotline.url,
      orgId: tenant.orgId,
      iframeApiKey: tenant.iframeKey,
      webhookSecret: tenant.webhookSecret,
    };
    core = await startCoreSystem({ ...options, port: await freePort() });
    wrongKey = await startCoreSystem({ ...options, iframeApiKey: `${tenant.iframeKey}x`, port: 0 });
  });
  afterAll(async () => {
    await core?.close();
    await wrongKey?.close();
    await lotline?.close();
  });

  /** Posts `body` to the core system's webhook receiver with the headers given. */
  const deliver = (body: string, headers: Record<string, string>, path = "/webhooks") =>
    fetch(`${core.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

  const received = async () =>
    (await (await fetch(`${core.url}/webhooks/received`)).json()) as { id: string; type: string; payload: unknown }[];

  function signed(body: string, id: string, secret = tenant.webhookSecret, at = new Date()) {
    return {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, at, body),
    };
  }

  it("signs in to Lotline server side and hands the page a working iframe token with its lifetime", async () => {
    const response = await fetch(`${core.url}/token`, { method: "POST" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { token: string; expires: string; expires_in: number };
    expect(Object.keys(body).sort()).toEqual(["expires", "expires_in", "token"]);
    expect(body.expires_in).toBe(lotline.config.iframeTokenTtlSeconds);
    const session = await verifyIframeToken(lotline.services.keys, lotline.config, body.token);
    expect(session.orgId).toBe(tenant.orgId);
    expect(session.expiresAt * 1000).toBe(Date.parse(body.expires));
  });

  it("answers 502 without a token when Lotline refuses the iframe key, and never shows the key", async () => {
    const response = await fetch(`${wrongKey.url}/token`, { method: "POST" });
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: "signin_failed", status: 401 });
    expect(text).not.toContain(tenant.iframeKey);
  });

  it("keeps a correctly signed webhook (204) and lists it newest first, each event once", async () => {
    const first = JSON.stringify({ type: "order.complete", timestamp: new Date().toISOString(), data: { n: 1 } });
    const second = JSON.stringify({ type: "footprint.submitted", timestamp: new Date().toISOString(), data: { n: 2 } });
    expect((await deliver(first, signed(first, "msg_first"))).status).toBe(204);
    expect((await deliver(second, signed(second, "msg_second"), "/webhooks/footprints")).status).toBe(204);
    // A retry of the same event (same webhook-id) is acknowledged but not kept twice.
    expect((await deliver(first, signed(first, "msg_first"))).status).toBe(204);

    const list = await received();
    expect(list.map((webhook) => [webhook.id, webhook.type])).toEqual([
      ["msg_second", "footprint.submitted"],
      ["msg_first", "order.complete"],
    ]);
    expect(list[1]?.payload).toEqual(JSON.parse(first));
  });

  it.each([
    ["another organization's secret", (body: string) => signed(body, "msg_bad1", `whsec_${"A".repeat(43)}=`)],
    ["a body changed after signing", (body: string) => signed(`${body} `, "msg_bad2")],
    [
      "a timestamp six minutes old",
      (body: string) => signed(body, "msg_bad3", undefined, new Date(Date.now() - 360_000)),
    ],
    ["no signature headers", () => ({})],
  ])("refuses %s with 401 and keeps nothing", async (_name, headersFor) => {
    const body = JSON.stringify({ type: "order.complete", timestamp: new Date().toISOString(), data: {} });
    const response = await deliver(body, headersFor(body) as Record<string, string>);
    expect(response.status).toBe(401);
    expect((await received()).map((webhook) => webhook.id)).not.toContain(
      (headersFor(body) as Record<string, string>)["webhook-id"],
    );
  });

  it("serves the host page under its own CSP, which frames Lotline's origin only and runs no inline script", async () => {
    const response = await fetch(`${core.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`frame-src ${new URL(lotline.url).origin}`);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const html = await response.text();
    expect(html).toContain('<script type="module" src="/host.js"></script>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toContain(tenant.iframeKey);
  });

  it("serves its scripts and styles with their content types, and where Lotline is", async () => {
    const script = await fetch(`${core.url}/host.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toContain('import { mount } from "/sdk/lotline-host-sdk.js";');
    // The SDK's browser bundle, from this origin: one module that imports nothing and hands tokens to the page.
    const sdk = await fetch(`${core.url}/sdk/lotline-host-sdk.js`);
    expect(sdk.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const bundle = await sdk.text();
    expect(bundle).toContain("host-session-token");
    expect(bundle).not.toMatch(/\bimport\s*[{*"'\w]|\bimport\(/);
    expect(bundle.toLowerCase()).not.toContain("typebox");
    expect((await fetch(`${core.url}/host.css`)).headers.get("content-type")).toBe("text/css; charset=utf-8");
    const config = await (await fetch(`${core.url}/config.json`)).json();
    expect(config).toEqual({ lotline_url: lotline.url, lotline_origin: new URL(lotline.url).origin });
  });

  it("answers 404 for anything outside its folder, however the path is spelt", async () => {
    expect((await fetch(`${core.url}/nothing.js`)).status).toBe(404);
    for (const path of ["/../package.json", "/%2e%2e/package.json", "/..%2fsrc%2findex.ts"]) {
      expect(await rawGetStatus(core.url, path)).toBe(404);
    }
  });
});

/** A GET with the path sent exactly as written (fetch would resolve the dot segments first). */
function rawGetStatus(base: string, path: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    request({ host: url.hostname, port: url.port, path, method: "GET" }, (response) => {
      response.resume();
      resolve(response.statusCode);
    })
      .on("error", reject)
      .end();
  });
}
