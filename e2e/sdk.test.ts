import type { Frame } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueLoginTicket } from "../packages/server/src/pages/login-ticket.js";
import { completedOrder } from "./harness/completed-order.js";
import { type DemoAddress, demoAddress } from "./harness/demo-address.js";
import { type E2eEnvironment, startE2eEnvironment } from "./harness/e2e-environment.js";
import type { HostPage } from "./harness/host-page.js";
import { nextTokenIs, tokenLasting } from "./harness/host-tokens.js";
import { waitUntil } from "./harness/wait-until.js";

/** A session event of the SDK as the demo host logged it (`window.coreSystem.sessionEvents`). */
interface SessionEvent {
  type: string;
  [field: string]: unknown;
}

/**
 * `@lotline/host-sdk/browser` in Chromium, as the demo core system uses it (its browser bundle, served by the
 * core system from its own origin): it mounts each page, delivers the page's window messages as typed events,
 * keeps the session alive without reloading the page, ignores messages from any other frame, and brings a page
 * that went to /login back with a fresh token.
 */
describe("the host SDK in a browser", () => {
  let env: E2eEnvironment;

  beforeAll(async () => {
    env = await startE2eEnvironment();
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  const sessionEvents = (host: HostPage) =>
    host.page.evaluate<SessionEvent[]>("window.coreSystem.sessionEvents.map((event) => ({ ...event }))");
  const refreshes = async (host: HostPage) =>
    (await sessionEvents(host)).filter((event) => event.type === "session-refreshed").length;
  const pathOf = (frame: Frame) => new URL(frame.url()).pathname;

  it("mounts each of the three pages, locked down, and delivers an order's messages through on()", async () => {
    const host = await env.openHostPage();
    const address: DemoAddress = await demoAddress(env.lotline.test.services, 3);
    await host.openLotlinePage("new-order", { address: address.display, external_id: "POL-SDK-1" });
    await host.waitForParcelDrawn();
    const iframe = host.page.locator("iframe.lotline-frame");
    expect(await iframe.getAttribute("referrerpolicy")).toBe("origin");
    expect(await iframe.getAttribute("allow")).toBe("");
    expect(await iframe.getAttribute("title")).toBe("Lotline: new order");
    expect(await host.page.locator("iframe").count()).toBe(1);
    expect(pathOf(await host.frame())).toBe("/property-profile/new-order");

    // A listener of the host's own, beside the demo's log: typed events through the handle's on().
    await host.page.evaluate(`
      window.completedIds = [];
      window.coreSystem.lotline.on("service-order-complete", (event) => window.completedIds.push(event.property_id));
    `);
    await host.frameLocator().getByRole("button", { name: "Place order" }).click();
    const messages = await host.waitForMessages(["service-order-processing", "service-order-complete"], 45_000);
    const orderMessages = messages.filter((message) => message.type.startsWith("service-order-"));
    expect(orderMessages.map((message) => message.type)).toEqual([
      "service-order-processing",
      "service-order-complete",
    ]);
    const propertyId = orderMessages[1]?.property_id;
    expect(Number.isSafeInteger(propertyId)).toBe(true);
    expect(orderMessages[0]).toEqual({ type: "service-order-processing", property_id: propertyId });
    expect(await host.page.evaluate("window.completedIds")).toEqual([propertyId]);
    expect(await sessionEvents(host)).toEqual([{ type: "session-refreshed", expiresIn: 3600 }]);

    // The property the order created, in its profile; then the footprint selection for the same address.
    await host.openLotlinePage("property-profile", { property_id: String(propertyId) });
    await host.waitForParcelDrawn();
    expect(pathOf(await host.frame())).toBe(`/property-profile/${propertyId}`);
    expect(await host.page.locator("iframe.lotline-frame").getAttribute("title")).toBe("Lotline: property profile");

    await host.openLotlinePage("footprint-selection", { address: address.display });
    await host.waitForParcelDrawn();
    expect(pathOf(await host.frame())).toBe("/embed/footprint-selection");
    expect(await host.frameLocator().getByRole("checkbox").count()).toBeGreaterThan(0);
    // Each Open replaced the previous frame: one frame, one fresh session each.
    expect(await host.page.locator("iframe").count()).toBe(1);
    expect(await refreshes(host)).toBe(3);
    expect((await host.messages()).filter((message) => message.type === "service-error")).toEqual([]);
    await host.page.close();
  }, 120_000);

  it("refreshes the token at half its life without reloading the page: what the user typed stays", async () => {
    const host = await env.openHostPage();
    const address = await demoAddress(env.lotline.test.services, 4);
    // The first token lives 60 s, so the SDK refreshes it after 30 s (a real sign-in, for an hour).
    await nextTokenIs(host, await tokenLasting(env, 60));
    await host.openLotlinePage("new-order", { address: address.display });
    const page = host.frameLocator();
    const banner = page.locator(".time-left");
    await expect.poll(() => banner.textContent(), { timeout: 20_000 }).toMatch(/Session time left: 00:[0-5]\d/);
    // Under a minute left: the SDK's ready-made notice says so above the frame.
    const notice = host.page.locator(".lotline-session-notice");
    await expect.poll(() => notice.textContent(), { timeout: 5_000 }).toMatch(/^Your session ends in/);

    const insuredName = page.getByLabel("Insured name");
    await insuredName.fill("Jane Example");
    const frame = await host.frame();
    await frame.evaluate("window.__notReloaded = true");
    const urlBefore = frame.url();
    const srcBefore = await host.page.locator("iframe.lotline-frame").getAttribute("src");

    await waitUntil(
      host.page,
      `window.coreSystem.sessionEvents.filter((event) => event.type === "session-refreshed").length === 2`,
      45_000,
    );
    // The page took the hour-long token by message: its banner is gone, and nothing was lost.
    await expect.poll(() => banner.count(), { timeout: 15_000 }).toBe(0);
    expect(await insuredName.inputValue()).toBe("Jane Example");
    expect(await (await host.frame()).evaluate("window.__notReloaded === true")).toBe(true);
    expect((await host.frame()).url()).toBe(urlBefore);
    expect(await host.page.locator("iframe.lotline-frame").getAttribute("src")).toBe(srcBefore);
    expect(await notice.isHidden()).toBe(true);
    expect(await host.page.evaluate<number>("window.coreSystem.lotline.timeLeft()")).toBeGreaterThan(3_500_000);
    const types = (await sessionEvents(host)).map((event) => event.type);
    expect(types[0]).toBe("session-refreshed");
    expect(types.filter((type) => type === "session-refreshed")).toHaveLength(2);
    expect(types).not.toContain("session-expired");
    expect((await host.messages()).filter((message) => message.type === "service-error")).toEqual([]);
    await host.page.close();
  }, 90_000);

  it("ignores window messages from any other frame, even one of Lotline's origin, and delivers its own", async () => {
    const host = await env.openHostPage();
    const address = await demoAddress(env.lotline.test.services, 5);
    await host.openLotlinePage("new-order", { address: address.display, external_id: "POL-SDK-3" });
    await host.waitForParcelDrawn();
    const lotlineOrigin = new URL(env.lotline.url).origin;

    // Everything that reaches the host window, before any check, to show the forgeries did arrive.
    await host.page.evaluate(`
      window.arrived = [];
      window.addEventListener("message", (event) => window.arrived.push({ origin: event.origin, data: event.data }));
    `);
    // A second frame on Lotline's origin: /login (anyone may frame it) with this organization and a genuine login
    // ticket, which posts service-error and service-session-ended to the registered host, as it does for any frame
    // it sits in.
    const ticket = issueLoginTicket(env.lotline.test.services.digester, env.tenant.orgId);
    const loginUrl = `${env.lotline.url}/login?reason=expired&org=${env.tenant.orgId}&ticket=${ticket}`;
    await host.page.evaluate(`
      const forger = document.createElement("iframe");
      forger.id = "forger";
      forger.src = ${JSON.stringify(loginUrl)};
      document.body.append(forger);
    `);
    const forger = await (await host.page.locator("#forger").elementHandle())?.contentFrame();
    if (!forger) throw new Error("the forging frame did not load");
    await waitUntil(forger, `document.querySelector("h1")?.textContent === "Your session has ended"`, 15_000);
    // Well-formed service messages from that frame, and one from the host page's own window.
    await forger.evaluate(`window.parent.postMessage({ type: "service-order-complete", property_id: 424242 }, "*")`);
    await host.page.evaluate(`window.postMessage({ type: "service-order-complete", property_id: 525252 }, "*")`);
    await waitUntil(
      host.page,
      `[424242, 525252].every((id) => window.arrived.some((entry) => entry.data?.property_id === id)) &&
       window.arrived.some((entry) => entry.data?.type === "service-session-ended")`,
      15_000,
    );
    const arrived = await host.page.evaluate<{ origin: string; data: { type?: string } }[]>("window.arrived");
    expect(arrived.find((entry) => entry.data.type === "service-session-ended")?.origin).toBe(lotlineOrigin);

    // The real frame's messages come through.
    await host.frameLocator().getByRole("button", { name: "Place order" }).click();
    const messages = await host.waitForMessages(["service-order-processing", "service-order-complete"], 45_000);
    expect(messages.map((message) => message.type)).toEqual(["service-order-processing", "service-order-complete"]);
    expect(messages.map((message) => message.property_id)).not.toContain(424242);
    expect(messages.map((message) => message.property_id)).not.toContain(525252);
    // The forged session-ended made the SDK fetch no token and reload nothing.
    expect(await refreshes(host)).toBe(1);
    expect(pathOf(await host.frame())).toBe("/property-profile/new-order");
    expect(await host.page.locator("#message-log li[data-type='service-session-ended']").count()).toBe(0);
    await host.page.close();
  }, 90_000);

  it("brings a page that went to /login back with a fresh token when /login reports service-session-ended", async () => {
    const host = await env.openHostPage();
    const address = await demoAddress(env.lotline.test.services, 6);
    const visited: string[] = [];
    host.page.on("framenavigated", (frame) => {
      if (frame.parentFrame() === host.page.mainFrame()) visited.push(pathOf(frame));
    });
    // The host is told this token is good for an hour, but it expired two minutes ago.
    const expired = await tokenLasting(env, -120, 3600);
    await nextTokenIs(host, expired);
    await host.openLotlinePage("new-order", { address: address.display, insured_name: "Jane Example" });

    const messages = await host.waitForMessages(["service-session-ended"], 20_000);
    expect(messages.find((message) => message.type === "service-session-ended")).toEqual({
      type: "service-session-ended",
      reason: "expired",
    });
    await waitUntil(
      host.page,
      `window.coreSystem.sessionEvents.filter((event) => event.type === "session-refreshed").length === 2`,
      20_000,
    );
    // The frame is back on its page with the second token and the parameters it was mounted with.
    await host.waitForParcelDrawn();
    expect(visited).toContain("/login");
    expect(visited.at(-1)).toBe("/property-profile/new-order");
    expect(pathOf(await host.frame())).toBe("/property-profile/new-order");
    const src = new URL((await host.page.locator("iframe.lotline-frame").getAttribute("src")) ?? "");
    expect(src.searchParams.get("jwt")).not.toBe(expired.token);
    expect(await host.frameLocator().getByLabel("Insured name").inputValue()).toBe("Jane Example");
    expect(await host.page.evaluate<number>("window.coreSystem.lotline.timeLeft()")).toBeGreaterThan(3_500_000);
    await host.page.close();
  }, 90_000);

  it("serves the SDK from the host's own origin as one module, with nothing blocked by the host's CSP", async () => {
    const host = await env.openHostPage();
    const response = await fetch(`${env.host.url}/sdk/lotline-host-sdk.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    const propertyId = await completedOrder(
      env.lotline,
      env.tenant,
      (await demoAddress(env.lotline.test.services, 7)).display,
    );
    await host.openLotlinePage("property-profile", { property_id: String(propertyId) });
    await host.waitForParcelDrawn();
    expect(host.console.filter((line) => line.includes("Content Security Policy"))).toEqual([]);
    await host.page.close();
  }, 90_000);
});
