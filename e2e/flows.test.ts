import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReceivedWebhook } from "../examples/core-system/src/index.js";
import { type DemoAddress, demoAddress } from "./harness/demo-address.js";
import { type E2eEnvironment, startE2eEnvironment } from "./harness/e2e-environment.js";
import type { HostMessage, HostPage } from "./harness/host-page.js";

/**
 * What a user does in the pages reaches the host: window messages in order, and signed webhooks that the demo
 * core system verified before keeping them.
 */
describe("orders and footprints placed through the pages", () => {
  let env: E2eEnvironment;
  let host: HostPage;

  beforeAll(async () => {
    env = await startE2eEnvironment();
    host = await env.openHostPage();
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  /** Waits until the host's receiver holds a verified webhook that `match` accepts. */
  async function receivedWebhook(match: (webhook: ReceivedWebhook) => boolean): Promise<ReceivedWebhook> {
    let found: ReceivedWebhook | undefined;
    await expect
      .poll(
        async () => {
          const list = (await (await fetch(`${env.host.url}/webhooks/received`)).json()) as ReceivedWebhook[];
          found = list.find(match);
          return found !== undefined;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe(true);
    return found as ReceivedWebhook;
  }

  const ofType = (messages: HostMessage[], type: string) => messages.filter((message) => message.type === type);

  it("places a new order: processing, then complete, for the property the order created", async () => {
    const address: DemoAddress = await demoAddress(env.lotline.test.services, 1);
    await host.openLotlinePage("new-order", { address: address.display, external_id: "POL-E2E-2" });
    await host.waitForParcelDrawn();
    await host.frameLocator().getByRole("button", { name: "Place order" }).click();

    const messages = await host.waitForMessages(["service-order-processing", "service-order-complete"], 45_000);
    const orderMessages = messages.filter((message) => message.type.startsWith("service-order-"));
    expect(orderMessages.map((message) => message.type)).toEqual([
      "service-order-processing",
      "service-order-complete",
    ]);
    const [processing, complete] = orderMessages;
    expect(Object.keys(processing ?? {}).sort()).toEqual(["property_id", "type"]);
    expect(complete?.property_id).toBe(processing?.property_id);
    expect(ofType(messages, "service-error")).toEqual([]);

    // The property the messages name is the one the order was placed for, by this organization.
    const order = await env.lotline.test.services.db
      .selectFrom("orders")
      .innerJoin("properties", "properties.property_id", "orders.property_id")
      .select([
        "orders.property_id",
        "orders.status",
        "orders.org_id",
        "properties.external_id",
        "properties.parcel_id",
      ])
      .where("properties.external_id", "=", "POL-E2E-2")
      .executeTakeFirstOrThrow();
    expect(Number(order.property_id)).toBe(complete?.property_id);
    expect(order).toMatchObject({ status: "complete", org_id: env.tenant.orgId });
    expect(Number(order.parcel_id)).toBe(address.parcelId);

    // The callback URL defaults to the host's receiver, which verified the order.complete webhook.
    const webhook = await receivedWebhook((hit) => hit.type === "order.complete");
    expect((webhook.payload as { data: { property_id: number } }).data.property_id).toBe(complete?.property_id);
  }, 90_000);

  it("submits a footprint selection: submitted, then callback completed, and the host holds the signed webhook", async () => {
    const address: DemoAddress = await demoAddress(env.lotline.test.services, 2);
    await host.openLotlinePage("footprint-selection", { address: address.display, external_id: "POL-E2E-3" });
    await host.waitForParcelDrawn();
    const page = host.frameLocator();
    const boxes = page.getByRole("checkbox");
    expect(await boxes.count()).toBeGreaterThan(0);
    // Select exactly one building: the first listed.
    for (let i = 0; i < (await boxes.count()); i++) await boxes.nth(i).setChecked(i === 0);
    // Each box is named after its building: `building-<building_id>`.
    const chosen = Number((await boxes.first().getAttribute("id"))?.replace(/^building-/, ""));
    expect(Number.isSafeInteger(chosen)).toBe(true);
    await page.getByRole("button", { name: "Submit footprints" }).click();

    const messages = await host.waitForMessages(
      ["service-footprint-submitted", "service-footprint-callback-completed"],
      45_000,
    );
    const footprintMessages = messages.filter((message) => message.type.startsWith("service-footprint-"));
    expect(footprintMessages.map((message) => message.type)).toEqual([
      "service-footprint-submitted",
      "service-footprint-callback-completed",
    ]);
    for (const message of footprintMessages) {
      expect(Object.keys(message).sort()).toEqual(["address", "type"]);
      expect(String(message.address).toUpperCase()).toContain(address.display.split(",")[0]?.toUpperCase());
    }

    const webhook = await receivedWebhook((hit) => hit.type === "footprint.submitted");
    const data = (webhook.payload as { data: { external_id: string; buildings: { building_id: number }[] } }).data;
    expect(data.external_id).toBe("POL-E2E-3");
    // The building sent is the one checked, and it stands on the address's parcel.
    expect(data.buildings.map((building) => building.building_id)).toEqual([chosen]);
    const building = await env.lotline.test.services.db
      .selectFrom("buildings")
      .select("parcel_id")
      .where("building_id", "=", chosen)
      .executeTakeFirstOrThrow();
    expect(Number(building.parcel_id)).toBe(address.parcelId);
  }, 90_000);

  it("uses no cookie or web storage: the flows above left nothing behind (the profile blocks third-party cookies)", async () => {
    expect(await env.chromium.context.cookies()).toEqual([]);
    const frame = await host.frame();
    const leftBehind = await frame.evaluate(() => {
      // Runs in the page; the tests' type library has no DOM.
      const page = globalThis as unknown as {
        document: { cookie: string };
        localStorage: { length: number };
        sessionStorage: { length: number };
      };
      return [page.document.cookie, page.localStorage.length, page.sessionStorage.length];
    });
    expect(leftBehind).toEqual(["", 0, 0]);
  });
});
