import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's Chromium; headless WebGL (MapLibre) needs the SwiftShader flags. */
export const CHROMIUM_PATH = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--enable-unsafe-swiftshader",
  "--use-angle=swiftshader",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Chromium with a fresh profile (no cookies, storage or cache from an earlier run), deleted on close. The profile
 * blocks third-party cookies, as more and more browsers do by default: the framed pages must work without them.
 */
export async function launchChromium(): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), "lotline-chromium-"));
  mkdirSync(join(profile, "Default"));
  // Chromium's own setting for "Block third-party cookies" (1).
  writeFileSync(join(profile, "Default", "Preferences"), JSON.stringify({ profile: { cookie_controls_mode: 1 } }));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    // Headless through the argument above, so the browser runs with exactly these flags.
    headless: false,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1000 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
