import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { StaticFile } from "./static-files.js";

/** Where the host page imports the SDK from: the core system's own origin, so its CSP stays `script-src 'self'`. */
export const SDK_BUNDLE_PATH = "/sdk/lotline-host-sdk.js";

/**
 * The browser bundle of the installed `@lotline/host-sdk` (its `./browser.js` export: one ES module, no
 * dependencies) and its source map, keyed by the paths the host page loads them from. Throws when the package
 * was installed without its bundle (in this repository: `npm run build:bundles`).
 */
export function loadSdkBundle(): Map<string, StaticFile> {
  let file: string;
  let script: Buffer;
  try {
    // Resolving checks the file exists too: a package built without its bundle fails here.
    file = createRequire(import.meta.url).resolve("@lotline/host-sdk/browser.js");
    script = readFileSync(file);
  } catch (cause) {
    throw new Error("The host SDK's browser bundle is missing: build it with `npm run build:bundles`.", { cause });
  }
  const bundle = new Map<string, StaticFile>([
    [SDK_BUNDLE_PATH, { body: script, contentType: "text/javascript; charset=utf-8" }],
  ]);
  try {
    bundle.set(`${SDK_BUNDLE_PATH}.map`, {
      body: readFileSync(`${file}.map`),
      contentType: "application/json; charset=utf-8",
    });
  } catch {
    // A bundle without its map works the same; only the browser's debugger misses it.
  }
  return bundle;
}
