import { generateKeyPairSync, sign } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningCoreSystem } from "../examples/core-system/src/index.js";
import { freePort } from "../packages/server/src/test/test-app.js";
import { startHost } from "./harness/core-system-host.js";
import { type DemoAddress, demoAddress } from "./harness/demo-address.js";
import { type E2eEnvironment, startE2eEnvironment } from "./harness/e2e-environment.js";
import { HostPage } from "./harness/host-page.js";
import { nextTokenIs, tokenLasting, tokensFail } from "./harness/host-tokens.js";

/**
 * Who may frame the pages, and how a page's session ends and is renewed: an unregistered origin cannot frame
 * them, an expired or forged token ends on /login, and a fresh token from the host keeps the page as it is.
 */
describe("page sessions in a browser", () => {
  let env: E2eEnvironment;
  let address: DemoAddress;
  let unregistered: RunningCoreSystem;

  beforeAll(async () => {
    env = await startE2eEnvironment();
    address = await demoAddress(env.lotline.test.services);
    // The same organization's credentials, but served from an origin it never registered.
    unregistered = await startHost(env.lotline.url, env.tenant, await freePort());
  }, 60_000);
  afterAll(async () => {
    await unregistered?.close();
    await env?.close();
  });

  it("cannot be framed by a host on an unregistered origin: Chromium blocks the frame by its CSP", async () => {
    const host = await HostPage.open(env.chromium.context, unregistered.url);
    await host.openLotlinePage("new-order", { address: address.display });

    await expect
      .poll(() => host.console.find((line) => line.includes("frame-ancestors")), { timeout: 15_000 })
      .toBeDefined();
    // Chromium's words vary by version ("Refused to frame …", "Framing … violates …"); the directive named is
    // the page's, listing the registered host only.
    const report = host.console.find((line) => line.includes("frame-ancestors")) ?? "";
    expect(report).toMatch(/^(Refused to frame|Framing) '[^']+'/);
    expect(report).toContain(`"frame-ancestors ${env.host.url}"`);
    expect(report).not.toContain(unregistered.url);
    // Nothing of the page ran: it posted no message, and the frame holds no Lotline document.
    await host.page.waitForTimeout(1_000);
    expect(await host.messages()).toEqual([]);
    const frame = await host.frame();
    expect(frame.url().startsWith(env.lotline.url)).toBe(false);
    await host.page.close();
  }, 60_000);

  it("sends an expired token to /login, which says the session ended and tells the host", async () => {
    const host = await HostPage.open(env.chromium.context, env.host.url);
    // The host is told the token is good for an hour; every later token request fails, so the SDK cannot
    // bring the page back (sdk.test.ts shows it doing so) and /login stays. The route added last answers first.
    await tokensFail(host);
    await nextTokenIs(host, await tokenLasting(env, -120, 3600));
    await host.openLotlinePage("new-order", { address: address.display });

    await expect.poll(async () => new URL((await host.frame()).url()).pathname, { timeout: 15_000 }).toBe("/login");
    const url = new URL((await host.frame()).url());
    expect(url.searchParams.get("reason")).toBe("expired");
    expect(url.searchParams.get("org")).toBe(env.tenant.orgId);
    const heading = host.frameLocator().getByRole("heading", { level: 1 });
    await expect.poll(() => heading.textContent(), { timeout: 15_000 }).toBe("Your session has ended");
    expect(await host.frameLocator().locator("body").textContent()).toContain("Return to your system");
    const messages = await host.waitForMessages(["service-error", "service-session-ended"], 15_000);
    expect(messages.map((message) => message.type)).toEqual(["service-error", "service-session-ended"]);
    expect(typeof messages[0]?.message).toBe("string");
    expect(messages[1]).toEqual({ type: "service-session-ended", reason: "expired" });
    await host.page.close();
  }, 60_000);

  it("tells the host itself when the token of an open page expires, then leaves for /login", async () => {
    const host = await HostPage.open(env.chromium.context, env.host.url);
    // Every refresh fails, so the page's own deadline ends the session (sdk.test.ts shows the renewal instead).
    await tokensFail(host);
    await nextTokenIs(host, await tokenLasting(env, 8));
    await host.openLotlinePage("new-order", { address: address.display });

    await expect.poll(async () => new URL((await host.frame()).url()).pathname, { timeout: 30_000 }).toBe("/login");
    const url = new URL((await host.frame()).url());
    expect(url.searchParams.get("reason")).toBe("expired");
    // /login is given no organization: the page told its host before it left.
    expect(url.searchParams.has("org")).toBe(false);
    const messages = await host.waitForMessages(["service-error", "service-session-ended"], 15_000);
    expect(messages.map((message) => message.type)).toEqual(["service-error", "service-session-ended"]);
    expect(messages[1]).toEqual({ type: "service-session-ended", reason: "expired" });
    await host.page.close();
  }, 60_000);

  it("sends a forged token to /login, which says the session could not be verified", async () => {
    const host = await HostPage.open(env.chromium.context, env.host.url);
    const genuine = await tokenLasting(env, 3600);
    await nextTokenIs(host, { ...genuine, token: forge(genuine.token) });
    await host.openLotlinePage("new-order", { address: address.display });

    await expect.poll(async () => new URL((await host.frame()).url()).pathname, { timeout: 15_000 }).toBe("/login");
    const url = new URL((await host.frame()).url());
    expect(url.searchParams.get("reason")).toBe("invalid");
    // A forged token names no organization Lotline can trust: /login is not told whose host to notify.
    expect(url.searchParams.has("org")).toBe(false);
    const heading = host.frameLocator().getByRole("heading", { level: 1 });
    await expect.poll(() => heading.textContent(), { timeout: 15_000 }).toBe("The session could not be verified");
    expect(await host.frameLocator().locator("body").textContent()).toContain("Return to your system");
    await host.page.close();
  }, 60_000);

  it("shows the time left under five minutes, and a token from the host renews the page without a reload", async () => {
    const host = await HostPage.open(env.chromium.context, env.host.url);
    await nextTokenIs(host, await tokenLasting(env, 200));
    await host.openLotlinePage("new-order", { address: address.display });
    const page = host.frameLocator();
    const banner = page.locator(".time-left");
    await expect.poll(() => banner.textContent(), { timeout: 20_000 }).toMatch(/Session time left: 0[0-3]:\d\d/);

    // What the user entered, and a mark a reload would wipe.
    const insuredName = page.getByLabel("Insured name");
    await insuredName.fill("Jane Example");
    const frame = await host.frame();
    await frame.evaluate("window.__notReloaded = true");
    const urlBefore = frame.url();

    // The routed answer was used once: this refresh signs in for real, for a full hour.
    await host.page.getByRole("button", { name: "Refresh session now" }).click();
    await expect.poll(() => banner.count(), { timeout: 15_000 }).toBe(0);
    expect(await insuredName.inputValue()).toBe("Jane Example");
    expect(await (await host.frame()).evaluate("window.__notReloaded === true")).toBe(true);
    expect((await host.frame()).url()).toBe(urlBefore);
    expect(await host.page.locator("#session-countdown").textContent()).toMatch(/Session ends in (59|60):\d\d/);
    expect((await host.messages()).filter((message) => message.type === "service-error")).toEqual([]);
    await host.page.close();
  }, 60_000);
});

/**
 * The token's header and claims, signed with a key Lotline never issued: what an attacker who knows the token
 * format but not Lotline's private key can make.
 */
function forge(token: string): string {
  const [header, payload] = token.split(".");
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signature = sign("sha256", Buffer.from(`${header}.${payload}`), privateKey).toString("base64url");
  return `${header}.${payload}.${signature}`;
}
