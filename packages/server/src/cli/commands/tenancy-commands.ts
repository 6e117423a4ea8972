import { PRODUCT_NAMES } from "@lotline/contract/products";
import { createApiClient, revokeApiClient } from "../../tenancy/api-clients.js";
import { createIframeKey, type IframeKeySummary, listIframeKeys, revokeIframeKey } from "../../tenancy/iframe-keys.js";
import { createOrganization } from "../../tenancy/organizations.js";
import { createProductMatrix } from "../../tenancy/product-matrices.js";
import type { Command } from "../command.js";
import type { CliIo } from "../io.js";
import { PUBLIC_URL_OPTION, PUBLIC_URL_USAGE, type ServiceUrls, serviceUrls } from "../service-urls.js";

/** `lotline org create --name NAME` → `{"org_id","webhook_secret"}`. */
const orgCreate: Command = {
  usage: "org create --name NAME [--json]",
  options: { name: { type: "string" } },
  required: ["name"],
  run: async ({ values, services }) => ({ ...(await createOrganization(services.db, values.name as string)) }),
  describe: (result) => `Created organization ${result.org_id}.\nwebhook secret (shown once): ${result.webhook_secret}`,
};

/**
 * `lotline client create --org ORG_ID [--public-url URL]` → `{"client_id","client_secret","audience","token_url",
 * "token_endpoint"}`: `token_url` is the identity provider's address as the interface names it (`{token_url}`), and
 * `token_endpoint` the full URL to post to, as OAuth libraries take it; both the service's (see {@link serviceUrls}).
 */
const clientCreate: Command = {
  usage: `client create --org ORG_ID ${PUBLIC_URL_USAGE} [--json]`,
  options: { org: { type: "string" }, ...PUBLIC_URL_OPTION },
  required: ["org"],
  run: async ({ values, services, io }) => {
    const urls = await serviceUrls(values, services, io);
    const client = await createApiClient(services.db, services.digester, values.org as string);
    tellNote(io, urls);
    return {
      ...client,
      audience: urls.apiAudience,
      token_url: urls.publicUrl,
      token_endpoint: `${urls.publicUrl}/oauth/token`,
    };
  },
  describe: (result) =>
    [
      `Created data API client ${result.client_id}.`,
      `client secret (shown once): ${result.client_secret}`,
      `audience: ${result.audience}`,
      `token endpoint: ${result.token_endpoint}`,
    ].join("\n"),
};

/** `lotline client revoke --client CLIENT_ID` → `{"client_id","revoked_at"}`; revoking again keeps the first time. */
const clientRevoke: Command = {
  usage: "client revoke --client CLIENT_ID [--json]",
  options: { client: { type: "string" } },
  required: ["client"],
  run: async ({ values, services }) => ({ ...(await revokeApiClient(services.db, values.client as string)) }),
  describe: (result) =>
    `Revoked data API client ${result.client_id} at ${result.revoked_at}. Its tokens stop working within 30 seconds.`,
};

/**
 * `lotline iframe-key create --org ORG_ID [--public-url URL]` → `{"org_id","api_key","iframe_auth_url","key_id"}`,
 * the sign-in URL being the service's (see {@link serviceUrls}); `key_id` is what `iframe-key revoke` takes.
 */
const iframeKeyCreate: Command = {
  usage: `iframe-key create --org ORG_ID ${PUBLIC_URL_USAGE} [--json]`,
  options: { org: { type: "string" }, ...PUBLIC_URL_OPTION },
  required: ["org"],
  run: async ({ values, services, io }) => {
    const orgId = values.org as string;
    const urls = await serviceUrls(values, services, io);
    const { key_id, api_key } = await createIframeKey(services.db, services.digester, orgId);
    tellNote(io, urls);
    return { org_id: orgId, api_key, iframe_auth_url: urls.publicUrl, key_id };
  },
  describe: (result) =>
    [
      `Created iframe API key ${result.key_id} for ${result.org_id}. Keep it on your servers; never send it to a browser.`,
      `api key (shown once): ${result.api_key}`,
      `sign-in endpoint: ${result.iframe_auth_url}/auth/signin/integration`,
    ].join("\n"),
};

/**
 * `lotline iframe-key list --org ORG_ID` → `{"org_id","iframe_keys":[{"key_id","created_at","revoked_at"}]}`, never
 * a key itself (only its digest is kept).
 */
const iframeKeyList: Command = {
  usage: "iframe-key list --org ORG_ID [--json]",
  options: { org: { type: "string" } },
  required: ["org"],
  run: async ({ values, services }) => ({
    org_id: values.org,
    iframe_keys: await listIframeKeys(services.db, values.org as string),
  }),
  describe: (result) =>
    (result.iframe_keys as IframeKeySummary[])
      .map(
        (key) =>
          `${key.key_id}  created ${key.created_at}${key.revoked_at === null ? "" : `  revoked ${key.revoked_at}`}`,
      )
      .join("\n") || `(no iframe keys for ${result.org_id})`,
};

/**
 * `lotline iframe-key revoke --key KEY_ID` → `{"key_id","org_id","revoked_at"}`; revoking again keeps the first
 * time.
 */
const iframeKeyRevoke: Command = {
  usage: "iframe-key revoke --key KEY_ID [--json]",
  options: { key: { type: "string" } },
  required: ["key"],
  run: async ({ values, services }) => ({ ...(await revokeIframeKey(services.db, values.key as string)) }),
  describe: (result) =>
    `Revoked iframe key ${result.key_id} of ${result.org_id} at ${result.revoked_at}. It signs in no more, and ` +
    "the page sessions signed in with it end within 30 seconds.",
};

/** `lotline keys rotate` → `{"kid"}`. */
const keysRotate: Command = {
  usage: "keys rotate [--json]",
  options: {},
  required: [],
  run: async ({ services }) => ({ kid: await services.keys.rotate() }),
  describe: (result) =>
    `New signing key ${result.kid}, used by every process from the next token on. ` +
    "The previous key signs no more and stays published for 48 hours.",
};

/**
 * `lotline keys revoke KID` → `{"kid","revoked_at","signing_kid","replaced"}`: an emergency, for a signing key that
 * may have leaked (see `SigningKeys.revoke`). `replaced` says whether it was the signing key, so that a new one was
 * made to take over.
 */
const keysRevoke: Command = {
  usage: "keys revoke KID [--json]",
  options: {},
  required: [],
  positional: "kid",
  run: async ({ values, services }) => {
    const revoked = await services.keys.revoke(values.kid as string);
    return {
      kid: revoked.kid,
      revoked_at: new Date(revoked.revokedAt).toISOString(),
      signing_kid: revoked.signingKid,
      replaced: revoked.replaced,
    };
  },
  describe: (result) =>
    [
      `Revoked signing key ${result.kid}: it is no longer published, and every token it signed stops working on ` +
        "every process within 30 seconds.",
      result.replaced
        ? `It was the signing key: new signing key ${result.signing_kid}.`
        : `The signing key is still ${result.signing_kid}.`,
    ].join("\n"),
};

/** `lotline product-matrix create --org ORG_ID --name NAME --products a,b,…` → `{"product_matrix_id","name","products"}`. */
const productMatrixCreate: Command = {
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

export const tenancyCommands: Record<string, Command> = {
  "org create": orgCreate,
  "client create": clientCreate,
  "client revoke": clientRevoke,
  "iframe-key create": iframeKeyCreate,
  "iframe-key list": iframeKeyList,
  "iframe-key revoke": iframeKeyRevoke,
  "keys rotate": keysRotate,
  "keys revoke": keysRevoke,
  "product-matrix create": productMatrixCreate,
};
