#!/usr/bin/env node
import { existsSync, statSync } from "node:fs";

const BUNDLE = new URL("../bundle/lotline.js", import.meta.url);
/** Written by each `tsc --build` that changed the compiled code, the server's or the contract's it bundles. */
const COMPILES = ["../tsconfig.tsbuildinfo", "../../contract/tsconfig.tsbuildinfo"].map(
  (p) => new URL(p, import.meta.url),
);

/**
 * The bundle (`npm run build`) starts in less than half the time of the modules it is made from. A compile after
 * it leaves it behind the sources, and then the compiled modules run.
 */
function bundleIsCurrent() {
  if (!existsSync(BUNDLE)) return false;
  const bundled = statSync(BUNDLE).mtimeMs;
  return COMPILES.every((compile) => !existsSync(compile) || statSync(compile).mtimeMs <= bundled);
}

const { main } = await import(bundleIsCurrent() ? BUNDLE.href : "../dist/cli/main.js");
const code = await main(process.argv.slice(2));
// serve and demo keep running; every other command ends here with its exit code.
if (code !== 0) process.exit(code);
