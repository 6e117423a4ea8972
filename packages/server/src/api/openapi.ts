import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config/config.js";

/**
 * Collects every route's schema into an OpenAPI 3.1 document, published at `GET /v1/openapi.json`. Call before
 * any route is registered.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Lotline data API",
        version: "1.0.0",
        description:
          "Property data for insurers. Obtain a bearer token from POST /oauth/token (client credentials, " +
          "valid 24 hours: reuse it) and send it as `Authorization: Bearer <token>` on every /v1 request. Input is " +
          "strict: values are never coerced to the declared type, text must not hold NUL or unpaired surrogates, " +
          "JSON may nest at most 32 levels; a refusal is 400 invalid_request listing each field in errors.",
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        },
      },
    },
  });
  app.get("/v1/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
