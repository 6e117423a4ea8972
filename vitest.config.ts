import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Tests that do not touch the database and are too slow to repeat for nothing: they run in the sqlite project only
 * (packing the host SDK and installing it in a fresh project, pure geometry, the coastline against brute force).
 */
const ONCE = [
  "packages/host-sdk/src/packaging/**",
  "packages/server/src/geo/geometry/**",
  "packages/server/src/products/location/coastline.test.ts",
];

/**
 * One suite, two databases: every test runs once on SQLite and once on PostgreSQL (the way Hono runs one router
 * suite against every router). `npm run test:sqlite` runs the SQLite half alone.
 */
export default defineConfig({
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "examples/*/src/**/*.test.ts",
      "e2e/**/*.test.ts",
      "docs/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    // Most test files wait on something else (PostgreSQL, Chromium, a child process, a loopback receiver): one
    // worker more than there are cores keeps them all busy. Vitest's default, one fewer, left one of two idle.
    maxWorkers: availableParallelism() + 1,
    // A worker keeps the modules it loaded from one test file to the next: loading the server's modules afresh for
    // each of some 370 files was a third of the suite's time. What the process keeps between calls (shapes kept
    // parsed) is forgotten before each file, whose databases reuse the ids of the one before.
    isolate: false,
    setupFiles: ["packages/server/src/test/fresh-process-caches.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ["default", "./scripts/summary-reporter.ts"],
    projects: [
      { extends: true, test: { name: "sqlite", env: { LOTLINE_TEST_DB: "sqlite" } } },
      {
        extends: true,
        test: {
          name: "postgres",
          env: { LOTLINE_TEST_DB: "postgres" },
          exclude: [...configDefaults.exclude, ...ONCE],
          globalSetup: ["packages/server/src/test/postgres-global-setup.ts"],
        },
      },
    ],
  },
});
