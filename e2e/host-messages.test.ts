import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoAddress, demoAddress } from "./harness/demo-address.js";
import { type E2eEnvironment, startE2eEnvironment } from "./harness/e2e-environment.js";
import type { HostMessage } from "./harness/host-page.js";

/**
 * What the host is told when things do not go to plan, and when they do with an address written its own way: a
 * failed order still ends with `service-order-complete`, a callback URL or an address that cannot be used is
 * reported as soon as the page opens, and footprint messages carry the address the host passed.
 */
describe("window messages the host can act on", () => {
  let env: E2eEnvironment;
  let address: DemoAddress;

  beforeAll(async () => {
    env = await startE2eEnvironment();
    address = await demoAddress(env.lotline.test.services, 3);
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  const ofType = (messages: HostMessage[], type: string) => messages.filter((message) => message.type === type);

  it("ends a failed order with service-order-complete after service-error, and the page says why", async () => {
    const host = await env.openHostPage();
    // No address: the user places the property on the overview map, far from any parcel on file.
    await host.openLotlinePage("new-order", { external_id: "POL-FAIL-1" });
    const page = host.frameLocator();
    const canvas = page.locator("canvas.maplibregl-canvas");
    await canvas.waitFor();
    await expect
      .poll(
        async () => {
          await canvas.click({ position: { x: 40, y: 40 } });
          return page.getByText("Placed on the map").count();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBeGreaterThan(0);
    await page.getByRole("button", { name: "Place order" }).click();

    const messages = await host.waitForMessages(["service-order-processing", "service-order-complete"], 45_000);
    const ordered = messages.filter((message) => message.type !== "service-session-ended");
    expect(ordered.map((message) => message.type)).toEqual([
      "service-order-processing",
      "service-error",
      "service-order-complete",
    ]);
    const [processing, error, complete] = ordered;
    expect(error?.property_id).toBe(processing?.property_id);
    expect(String(error?.message)).toMatch(/no parcel/i);
    expect(complete).toEqual({
      type: "service-order-complete",
      property_id: processing?.property_id,
      status: "failed",
      reason: "no_parcel_at_location",
    });
    await expect.poll(() => page.locator(".order-progress").textContent()).toMatch(/failed[\s\S]*no parcel/i);
    await host.page.close();
  }, 90_000);

  it("sends the footprint messages with the address as the host wrote it", async () => {
    const host = await env.openHostPage();
    // Written as a core system might hold it: lower case, where the service's address is upper case.
    const written = address.display.toLowerCase();
    await host.openLotlinePage("footprint-selection", { address: written });
    await host.waitForParcelDrawn();
    const page = host.frameLocator();
    await page.getByRole("checkbox").first().setChecked(true);
    await page.getByRole("button", { name: "Submit footprints" }).click();

    const messages = await host.waitForMessages(
      ["service-footprint-submitted", "service-footprint-callback-completed"],
      45_000,
    );
    const footprint = messages.filter((message) => message.type.startsWith("service-footprint-"));
    expect(footprint).toEqual([
      { type: "service-footprint-submitted", address: written },
      { type: "service-footprint-callback-completed", address: written },
    ]);
    expect(ofType(messages, "service-error")).toEqual([]);
    await host.page.close();
  }, 90_000);

  it.each(["new-order", "footprint-selection"] as const)(
    "reports a callback URL under no registered prefix as soon as %s opens, and lets no work start",
    async (name) => {
      const host = await env.openHostPage();
      const callback = "https://elsewhere.example/hooks/";
      await host.openLotlinePage(name, { address: address.display, callback_url: callback });

      const messages = await host.waitForMessages(["service-error"], 30_000);
      const [error] = ofType(messages, "service-error");
      expect(String(error?.message)).toContain(callback);
      expect(String(error?.message)).toMatch(/registered callback prefix/);
      const page = host.frameLocator();
      await expect.poll(() => page.locator("#callback-problem").textContent()).toContain(callback);

      await host.waitForParcelDrawn();
      const action = name === "new-order" ? "Place order" : "Submit footprints";
      if (name === "footprint-selection") await page.getByRole("checkbox").first().setChecked(true);
      expect(await page.getByRole("button", { name: action }).isDisabled()).toBe(true);
      await host.page.close();
    },
    90_000,
  );

  it.each(["new-order", "footprint-selection"] as const)(
    "reports an address the host passed that cannot be found, on the map and to the host (%s)",
    async (name) => {
      const host = await env.openHostPage();
      const nowhere = "9999 Nowhere Boulevard, Atlantis, ZZ 00000";
      await host.openLotlinePage(name, { address: nowhere });

      const messages = await host.waitForMessages(["service-error"], 30_000);
      expect(ofType(messages, "service-error")).toEqual([
        { type: "service-error", message: `The address “${nowhere}” could not be found.` },
      ]);
      const notice = host
        .frameLocator()
        .getByRole("region", { name: /^Map of/ })
        .locator(".map__notice");
      await expect.poll(() => notice.textContent()).toContain(`“${nowhere}” could not be found`);
      await host.page.close();
    },
    60_000,
  );
});
