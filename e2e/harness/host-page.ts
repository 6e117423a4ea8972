import type { BrowserContext, ConsoleMessage, Frame, FrameLocator, Page } from "playwright-core";
import { waitUntil } from "./wait-until.js";

/** The embeddable pages by the name the host page's picker gives them. */
export type LotlinePage = "new-order" | "property-profile" | "footprint-selection";

/** A window message as the host page accepted and logged it. */
export interface HostMessage {
  type: string;
  [field: string]: unknown;
}

/**
 * The demo core system's host page in a browser tab, driven as its user drives it: pick a page, fill the form,
 * press Open. Reads what the host saw: the window messages it accepted (`window.coreSystem.messages`) and the
 * console, where Chromium reports what a Content-Security-Policy blocked.
 */
export class HostPage {
  readonly console: string[] = [];

  private constructor(
    readonly page: Page,
    readonly hostUrl: string,
  ) {
    page.on("console", (message: ConsoleMessage) => this.console.push(message.text()));
  }

  /** Opens the host page in a new tab and waits until it is ready to open a Lotline page. */
  static async open(context: BrowserContext, hostUrl: string): Promise<HostPage> {
    const page = await context.newPage();
    await page.goto(`${hostUrl}/`);
    const host = new HostPage(page, hostUrl);
    await page.locator("#open-button:enabled").waitFor();
    return host;
  }

  /** Picks `name`, fills the fields given (by their parameter name) and presses Open. */
  async openLotlinePage(name: LotlinePage, fields: Record<string, string> = {}): Promise<void> {
    await this.page.locator("#page-select").selectOption(name);
    for (const [field, value] of Object.entries(fields)) {
      await this.page.locator(`#open-form [name="${field}"]`).fill(value);
    }
    const previous = await this.page.evaluate<number | null>("window.coreSystem.frameCreatedAt ?? null");
    await this.page.getByRole("button", { name: "Open", exact: true }).click();
    // A new frame each time; a failed sign-in shows its reason in the form instead.
    await waitUntil(
      this.page,
      `(window.coreSystem.frameCreatedAt ?? null) !== ${previous} || !document.getElementById("form-error").hidden`,
    );
    const error = this.page.locator("#form-error:visible");
    if (await error.count()) throw new Error(`the host could not open ${name}: ${await error.textContent()}`);
  }

  /** The Lotline page, for locators (they wait and retry across its navigations). */
  frameLocator(): FrameLocator {
    return this.page.frameLocator("#lotline-frame");
  }

  /** The iframe's current frame, to read its URL or evaluate in it. */
  async frame(): Promise<Frame> {
    const element = await this.page.locator("#lotline-frame").elementHandle();
    const frame = await element?.contentFrame();
    if (!frame) throw new Error("the host page has no Lotline frame");
    return frame;
  }

  /** Waits until the page has drawn its parcel (`<html data-parcel-drawn="true">` in the frame). */
  async waitForParcelDrawn(timeout = 45_000): Promise<void> {
    await this.frameLocator().locator('html[data-parcel-drawn="true"]').waitFor({ state: "attached", timeout });
  }

  /** Every window message the host accepted so far, oldest first. */
  messages(): Promise<HostMessage[]> {
    return this.page.evaluate<HostMessage[]>("window.coreSystem.messages.map((message) => ({ ...message }))");
  }

  /** Waits until the host has accepted a message of each type given, and answers all messages so far. */
  async waitForMessages(types: string[], timeout = 30_000): Promise<HostMessage[]> {
    await waitUntil(
      this.page,
      `${JSON.stringify(types)}.every((type) => window.coreSystem.messages.some((message) => message.type === type))`,
      timeout,
    );
    return this.messages();
  }
}
