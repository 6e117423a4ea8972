import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DIALECT } from "../packages/server/src/test/test-database.js";
import { artifactPath } from "./harness/artifacts.js";
import { completedOrder } from "./harness/completed-order.js";
import { type DemoAddress, demoAddress } from "./harness/demo-address.js";
import { type E2eEnvironment, startE2eEnvironment } from "./harness/e2e-environment.js";
import type { HostPage, LotlinePage } from "./harness/host-page.js";

/**
 * The three embeddable pages in Chromium, framed by the demo core system on another origin: each draws its
 * parcel, takes its token out of its address, and the new order page refuses a self-intersecting boundary.
 */
describe("the embeddable pages in a browser", () => {
  let env: E2eEnvironment;
  let address: DemoAddress;
  let propertyId: number;
  let host: HostPage;

  beforeAll(async () => {
    env = await startE2eEnvironment();
    address = await demoAddress(env.lotline.test.services);
    propertyId = await completedOrder(env.lotline, env.tenant, address.display);
    host = await env.openHostPage();
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  const PAGES: [LotlinePage, string, () => Record<string, string>][] = [
    ["new-order", "/property-profile/new-order", () => ({ address: address.display, external_id: "POL-1" })],
    ["property-profile", "/property-profile/", () => ({ property_id: String(propertyId) })],
    ["footprint-selection", "/embed/footprint-selection", () => ({ address: address.display })],
  ];

  it.each(PAGES)(
    "shows %s inside the host's frame with its parcel drawn on the map",
    async (name, path, fields) => {
      await host.openLotlinePage(name, fields());
      await host.waitForParcelDrawn();
      const frame = await host.frame();
      expect(new URL(frame.url()).origin).toBe(new URL(env.lotline.url).origin);
      expect(new URL(frame.url()).pathname).toBe(name === "property-profile" ? `${path}${propertyId}` : path);
      // The map is there and has a size: a parcel "drawn" into a zero-sized canvas would show nobody anything.
      const canvas = await host.frameLocator().locator("canvas.maplibregl-canvas").boundingBox();
      expect(canvas?.width).toBeGreaterThan(200);
      expect(canvas?.height).toBeGreaterThan(200);
      expect((await host.messages()).filter((message) => message.type === "service-error")).toEqual([]);
      if (name === "footprint-selection") {
        // Each footprint carries the number its checkbox is labelled with.
        const labels = await host
          .frameLocator()
          .getByRole("checkbox")
          .evaluateAll((boxes) => boxes.length);
        const numbers = await host.frameLocator().locator(".map__building-number").allTextContents();
        expect(numbers).toEqual(Array.from({ length: labels }, (_, index) => String(index + 1)));
      }
      if (name === "property-profile") {
        // The data's one version, made by the completed order, with the datasets it came from.
        const versions = host.frameLocator().getByRole("region", { name: "Data versions" });
        await expect.poll(() => versions.textContent()).toContain("An order completed");
        expect(await versions.textContent()).toMatch(/Version\s*1/);
      }
      const file = TEST_DIALECT === "sqlite" ? `${name}.png` : `${name}-${TEST_DIALECT}.png`;
      await host.page.locator("#lotline-frame").screenshot({ path: artifactPath(file) });
    },
    60_000,
  );

  it("takes the JWT out of the page's address at once, keeping the other parameters", async () => {
    await host.openLotlinePage("new-order", { address: address.display, external_id: "POL-6" });
    const src = (await host.page.locator("#lotline-frame").getAttribute("src")) ?? "";
    expect(new URL(src).searchParams.get("jwt")).toBeTruthy();
    await host.waitForParcelDrawn();

    const url = new URL((await host.frame()).url());
    expect(url.pathname).toBe("/property-profile/new-order");
    expect(url.searchParams.has("jwt")).toBe(false);
    expect(url.searchParams.get("address")).toBe(address.display);
    expect(url.searchParams.get("external_id")).toBe("POL-6");
    const location = await (await host.frame()).evaluate<string>("location.href");
    expect(location).not.toContain("jwt");
  }, 60_000);

  it("refuses a redrawn boundary that crosses itself, says why, and keeps the parcel's boundary", async () => {
    await host.openLotlinePage("new-order", { address: address.display });
    await host.waitForParcelDrawn();
    const page = host.frameLocator();
    const boundary = page.getByRole("region", { name: "Parcel boundary" }).locator("p").first();
    const before = await boundary.textContent();
    expect(before).toContain("The imported parcel");

    await page.getByRole("button", { name: "Redraw boundary" }).click();
    const canvas = await page.locator("canvas.maplibregl-canvas").boundingBox();
    if (!canvas) throw new Error("the map has no canvas");
    // A bow tie: its second and fourth edges cross. Clicking the first corner again closes the polygon.
    const at = (x: number, y: number) => ({ x: canvas.x + canvas.width * x, y: canvas.y + canvas.height * y });
    const corners = [at(0.3, 0.3), at(0.7, 0.7), at(0.7, 0.3), at(0.3, 0.7)];
    for (const corner of [...corners, corners[0] ?? at(0.3, 0.3)]) {
      await host.page.mouse.move(corner.x, corner.y, { steps: 4 });
      await host.page.mouse.click(corner.x, corner.y);
      await host.page.waitForTimeout(150);
    }

    const alert = page.locator("#boundary-message");
    await expect.poll(() => alert.textContent(), { timeout: 15_000 }).toMatch(/cannot be used/i);
    expect(await alert.getAttribute("role")).toBe("alert");
    expect(await alert.textContent()).toMatch(/cross|intersect/i);
    expect(await boundary.textContent()).toBe(before);
  }, 60_000);
});
