import type { Frame, Page } from "playwright-core";

/**
 * Waits until `expression` is truthy in the page or frame. Playwright's own `waitForFunction` evaluates a string
 * with `eval` inside the page, which the pages' CSP (rightly) forbids; this evaluates through the browser's
 * debugging protocol instead, which no page policy restricts, and retries across navigations.
 */
export async function waitUntil(target: Page | Frame, expression: string, timeout = 30_000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const done = await target.evaluate<boolean>(`Boolean(${expression})`).catch(() => false);
    if (done) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
