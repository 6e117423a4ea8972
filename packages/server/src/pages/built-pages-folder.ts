import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * Where the built pages are: the `dist` folder of the `@lotline/web` package, found the way Node finds the
 * package (a workspace link in a checkout, an installed dependency otherwise). Throws when the package is not
 * installed.
 */
export function builtPagesFolder(): string {
  return join(dirname(createRequire(import.meta.url).resolve("@lotline/web/package.json")), "dist");
}
