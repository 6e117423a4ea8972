import type { PageSession } from "@lotline/contract";
import type { IframeSession } from "../auth/tokens/iframe-token.js";
import { NotFoundError } from "../errors.js";
import type { Services } from "../services.js";
import { listCustomFields } from "../tenancy/custom-fields.js";
import { listHostOrigins } from "../tenancy/host-origins.js";
import { findOrganization } from "../tenancy/organizations.js";
import { listProductMatrices } from "../tenancy/product-matrices.js";

/**
 * Everything a page needs to start, for the organization an iframe session speaks for: who it is, how long the
 * session has left (counted here, so the page need not trust the browser's clock), the origins it may post to,
 * the choices its order form offers and the map's settings. Throws {@link NotFoundError} when the organization
 * no longer exists.
 */
export async function buildPageSession({ db, config }: Services, session: IframeSession): Promise<PageSession> {
  const org = await findOrganization(db, session.orgId);
  if (!org) throw new NotFoundError("organization_not_found", `no organization ${session.orgId}`);
  const [hostOrigins, productMatrices, customFields] = await Promise.all([
    listHostOrigins(db, org.org_id),
    listProductMatrices(db, org.org_id),
    listCustomFields(db, org.org_id),
  ]);
  return {
    org_id: org.org_id,
    org_name: org.name,
    expires_at: new Date(session.expiresAt * 1000).toISOString(),
    expires_in: Math.max(0, session.expiresAt - Math.floor(Date.now() / 1000)),
    host_origins: hostOrigins,
    product_matrices: productMatrices,
    custom_fields: customFields,
    map: { imagery_url: config.mapImageryUrl, imagery_attribution: config.mapImageryAttribution },
  };
}
