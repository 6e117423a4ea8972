import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";

/** `GET /.well-known/jwks.json` (public keys only) and the RFC 8414 authorization server metadata. */
export function registerMetadataRoutes(app: FastifyInstance, { config, keys }: Services): void {
  app.get(
    "/.well-known/jwks.json",
    { schema: { tags: ["auth"], summary: "Public signing keys" } },
    async (_request, reply) => {
      reply.header("cache-control", "public, max-age=60");
      return keys.jwks();
    },
  );

  app.get(
    "/.well-known/oauth-authorization-server",
    { schema: { tags: ["auth"], summary: "Authorization server metadata (RFC 8414)" } },
    async (_request, reply) => {
      reply.header("cache-control", "public, max-age=3600");
      return {
        issuer: config.publicUrl,
        token_endpoint: `${config.publicUrl}/oauth/token`,
        jwks_uri: `${config.publicUrl}/.well-known/jwks.json`,
        grant_types_supported: ["client_credentials"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
        response_types_supported: [],
        scopes_supported: [],
      };
    },
  );
}
