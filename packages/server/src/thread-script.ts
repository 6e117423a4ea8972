/**
 * The scripts the service starts worker threads from, by their path in the compiled `dist` without `.js`. The bundle
 * (`rolldown.config.js`) makes an entry of each under its last name.
 */
export const THREAD_SCRIPTS = [
  "geo/import/import-thread",
  "compute/geometry-worker",
  "events/search-thread",
  "workers/order-thread",
] as const;

export type ThreadScript = (typeof THREAD_SCRIPTS)[number];

/** The folder this module was loaded from: `bundle/` when the bundle runs, else `dist/`, or `src/` under tests. */
const LOADED_FROM = new URL(".", import.meta.url);

/**
 * Where a thread's script is: the bundle's own entry when the bundle runs, so that a thread starts as quickly as
 * the command did; otherwise the compiled module in `dist`, also under tests, which run the sources a worker thread
 * cannot load (`tsc --build` first).
 */
export function threadScript(script: ThreadScript): URL {
  if (LOADED_FROM.pathname.endsWith("/bundle/")) return new URL(`${bundleEntryName(script)}.js`, LOADED_FROM);
  return new URL(`../dist/${script}.js`, LOADED_FROM);
}

/** The bundle's name for a thread's entry: the script's last name, which no two of them share. */
export function bundleEntryName(script: ThreadScript): string {
  return script.slice(script.lastIndexOf("/") + 1);
}
