import type { RunningCoreSystem } from "../../examples/core-system/src/index.js";
import type { Settings } from "../../packages/server/src/config/config.js";
import { freePort, type TestTenant } from "../../packages/server/src/test/test-app.js";
import { type Chromium, launchChromium } from "./chromium.js";
import { startHost } from "./core-system-host.js";
import { HostPage } from "./host-page.js";
import { createHostTenant } from "./host-tenant.js";
import { type LotlineServer, startLotline } from "./lotline-server.js";

export interface E2eEnvironment {
  lotline: LotlineServer;
  tenant: TestTenant;
  /** The tenant's registered host: the demo core system on its own origin. */
  host: RunningCoreSystem;
  chromium: Chromium;
  /** A new tab on the registered host page. */
  openHostPage(): Promise<HostPage>;
  close(): Promise<void>;
}

/**
 * What one browser test file needs, started once: Lotline with workers and the demo neighbourhood, a tenant
 * whose host page (the demo core system on another loopback port, so another origin) is registered, and Chromium.
 */
export async function startE2eEnvironment(settings: Settings = {}): Promise<E2eEnvironment> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer();
  };
  try {
    const lotline = await startLotline(settings);
    closers.push(() => lotline.close());
    const hostPort = await freePort();
    const tenant = await createHostTenant(lotline.test.services, `http://127.0.0.1:${hostPort}`);
    const host = await startHost(lotline.url, tenant, hostPort);
    closers.push(() => host.close());
    const chromium = await launchChromium();
    closers.push(() => chromium.close());
    return {
      lotline,
      tenant,
      host,
      chromium,
      openHostPage: () => HostPage.open(chromium.context, host.url),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
