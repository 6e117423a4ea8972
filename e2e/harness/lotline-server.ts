import type { Settings } from "../../packages/server/src/config/config.js";
import { importDemoNeighbourhood } from "../../packages/server/src/geo/import/import-demo-neighbourhood.js";
import { createTestApp, type TestApp } from "../../packages/server/src/test/test-app.js";
import { createJobRunner } from "../../packages/server/src/workers/background-work.js";

export interface LotlineServer {
  test: TestApp;
  /** The server's public URL, e.g. `http://127.0.0.1:41234`: the origin the pages are served from. */
  url: string;
  close(): Promise<void>;
}

/**
 * Lotline as `lotline serve` runs it, on a fresh database of the current test project: listening on a free
 * loopback port (its public URL is that address), the generated demo neighbourhood loaded, and background
 * workers processing orders and delivering webhooks. Webhooks may go to 127.0.0.1, where the test host listens.
 */
export async function startLotline(settings: Settings = {}): Promise<LotlineServer> {
  const test = await createTestApp({ LOTLINE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1", ...settings }, { listen: true });
  try {
    await importDemoNeighbourhood(test.services.database);
  } catch (error) {
    await test.close();
    throw error;
  }
  const runner = createJobRunner(test.services);
  test.services.nudgeWorkers = () => runner.nudge();
  runner.start();
  return {
    test,
    url: test.url,
    async close() {
      await runner.stop({ timeoutMs: 5_000 });
      await test.close();
    },
  };
}
