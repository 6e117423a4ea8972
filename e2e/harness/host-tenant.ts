import type { Services } from "../../packages/server/src/services.js";
import { addCallbackPrefix } from "../../packages/server/src/tenancy/callback-prefixes.js";
import { addHostOrigin } from "../../packages/server/src/tenancy/host-origins.js";
import { createTenant, type TestTenant } from "../../packages/server/src/test/test-app.js";

/**
 * An organization with an iframe key whose host page lives at `hostUrl`: that origin is registered to frame the
 * pages, and `hostUrl/webhooks` as a callback prefix.
 */
export async function createHostTenant(services: Services, hostUrl: string): Promise<TestTenant> {
  const tenant = await createTenant(services, "Fairview Mutual");
  await addHostOrigin(services.db, tenant.orgId, hostUrl);
  await addCallbackPrefix(services.db, tenant.orgId, `${hostUrl}/webhooks`);
  return tenant;
}
