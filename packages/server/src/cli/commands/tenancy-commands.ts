import { PRODUCT_NAMES } from "@lotline/contract";
import { createApiClient, revokeApiClient } from "../../tenancy/api-clients.js";
import { createIframeKey } from "../../tenancy/iframe-keys.js";
import { createOrganization } from "../../tenancy/organizations.js";
import { createProductMatrix } from "../../tenancy/product-matrices.js";
import type { Command } from "../command.js";
import type { CliIo } from "../io.js";
import { PUBLIC_URL_OPTION, PUBLIC_URL_USAGE, type ServiceUrls, serviceUrls } from "../service-urls.js";

/** `lotline org create --name NAME` → `{"org_id","webhook_secret"}`. */
export const orgCreate: Command = {
  usage: "org create --name NAME [--json]",
  options: { name: { type: "string" } },
  required: ["name"],
  run: async ({ values, services }) => ({ ...(await createOrganization(services.db, values.name as string)) }),
  describe: (result) => `Created organization ${result.org_id}.\nwebhook secret (shown once): ${result.webhook_secret}`,
};

/**
 * `lotline client create --org ORG_ID [--public-url URL]` → `{"client_id","client_secret","audience","token_url"}`,
 * the audience and token URL being the service's (see {@link serviceUrls}).
 */
export const clientCreate: Command = {
  usage: `client create --org ORG_ID ${PUBLIC_URL_USAGE} [--json]`,
  options: { org: { type: "string" }, ...PUBLIC_URL_OPTION },
  required: ["org"],
  run: async ({ values, services, io }) => {
    const urls = await serviceUrls(values, services, io);
    const client = await createApiClient(services.db, services.digester, values.org as string);
    tellNote(io, urls);
    return { ...client, audience: urls.apiAudience, token_url: urls.publicUrl };
  },
  describe: (result) =>
    [
      `Created data API client ${result.client_id}.`,
      `client secret (shown once): ${result.client_secret}`,
      `audience: ${result.audience}`,
      `token endpoint: ${result.token_url}/oauth/token`,
    ].join("\n"),
};

/** `lotline client revoke --client CLIENT_ID` → `{"client_id","revoked_at"}`; revoking again keeps the first time. */
export const clientRevoke: Command = {
  usage: "client revoke --client CLIENT_ID [--json]",
  options: { client: { type: "string" } },
  required: ["client"],
  run: async ({ values, services }) => ({ ...(await revokeApiClient(services.db, values.client as string)) }),
  describe: (result) =>
    `Revoked data API client ${result.client_id} at ${result.revoked_at}. Its tokens stop working within 30 seconds.`,
};

/**
 * `lotline iframe-key create --org ORG_ID [--public-url URL]` → `{"org_id","api_key","iframe_auth_url"}`, the
 * sign-in URL being the service's (see {@link serviceUrls}).
 */
export const iframeKeyCreate: Command = {
  usage: `iframe-key create --org ORG_ID ${PUBLIC_URL_USAGE} [--json]`,
  options: { org: { type: "string" }, ...PUBLIC_URL_OPTION },
  required: ["org"],
  run: async ({ values, services, io }) => {
    const orgId = values.org as string;
    const urls = await serviceUrls(values, services, io);
    const { api_key } = await createIframeKey(services.db, services.digester, orgId);
    tellNote(io, urls);
    return { org_id: orgId, api_key, iframe_auth_url: urls.publicUrl };
  },
  describe: (result) =>
    [
      `Created an iframe API key for ${result.org_id}. Keep it on your servers; never send it to a browser.`,
      `api key (shown once): ${result.api_key}`,
      `sign-in endpoint: ${result.iframe_auth_url}/auth/signin/integration`,
    ].join("\n"),
};

/** `lotline keys rotate` → `{"kid"}`. */
export const keysRotate: Command = {
  usage: "keys rotate [--json]",
  options: {},
  required: [],
  run: async ({ services }) => ({ kid: await services.keys.rotate() }),
  describe: (result) =>
    `New signing key ${result.kid}. The previous key signs no more and stays published for 48 hours.`,
};

/** `lotline product-matrix create --org ORG_ID --name NAME --products a,b,…` → `{"product_matrix_id","name","products"}`. */
export const productMatrixCreate: Command = {
  usage: `product-matrix create --org ORG_ID --name NAME --products ${PRODUCT_NAMES.join(",")} [--default] [--json]`,
  options: {
    org: { type: "string" },
    name: { type: "string" },
    products: { type: "string" },
    default: { type: "boolean" },
  },
  required: ["org", "name", "products"],
  run: async ({ values, services }) => {
    const matrix = await createProductMatrix(
      services.db,
      values.org as string,
      values.name as string,
      values.products as string,
      { isDefault: values.default === true },
    );
    return { product_matrix_id: matrix.product_matrix_id, name: matrix.name, products: matrix.products };
  },
  describe: (result) =>
    `Created product matrix ${result.product_matrix_id} "${result.name}": ${(result.products as string[]).join(", ")}.`,
};

/** On stderr, so that `--json` still prints exactly one JSON object on stdout. */
function tellNote(io: CliIo, { note }: ServiceUrls): void {
  if (note) io.stderr(`lotline: note: ${note}\n`);
}
