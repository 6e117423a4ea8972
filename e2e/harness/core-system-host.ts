import { type RunningCoreSystem, startCoreSystem } from "../../examples/core-system/src/index.js";
import type { TestTenant } from "../../packages/server/src/test/test-app.js";

/** The demo core system as the tenant's host page, on `port` of 127.0.0.1: an origin other than Lotline's. */
export function startHost(lotlineUrl: string, tenant: TestTenant, port: number): Promise<RunningCoreSystem> {
  return startCoreSystem({
    port,
    host: "127.0.0.1",
    lotlineUrl,
    orgId: tenant.orgId,
    iframeApiKey: tenant.iframeKey,
    webhookSecret: tenant.webhookSecret,
  });
}
