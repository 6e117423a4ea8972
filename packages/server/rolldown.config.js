// The `lotline` command and its worker threads bundled from the compiled `dist` into `bundle/` (`npm run bundle`).
// Node loads each ES module on its own, resolving, reading and linking it: an import loaded some 590 modules,
// Kysely's 262 among them, and that took more than half of a short command's time (a small layer import 0.43 s
// from `dist`, 0.18 s from the bundle). `bin/lotline.js` runs the bundle while it is newer than the last compile.
import { defineConfig } from "rolldown";
import { bundleEntryName, THREAD_SCRIPTS } from "./dist/thread-script.js";

/**
 * Packages loaded as installed rather than bundled: the native drivers, and the web server's packages, which read
 * files beside their own code at run time (pino's transports, Swagger UI's pages) and load only with `serve`.
 */
const AS_INSTALLED = /^(better-sqlite3|pg|fastify|@fastify\/[^/]+|pino|prom-client|swagger-ui-dist)(\/|$)/;

const threadEntries = Object.fromEntries(
  THREAD_SCRIPTS.map((script) => [bundleEntryName(script), `dist/${script}.js`]),
);

export default defineConfig({
  input: { lotline: "dist/cli/main.js", ...threadEntries },
  platform: "node",
  external: (id) => AS_INSTALLED.test(id),
  output: { dir: "bundle", format: "esm", sourcemap: true, cleanDir: true },
});
