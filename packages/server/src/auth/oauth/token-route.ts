import { OAuthErrorResponse, TokenResponse } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { NO_STORE } from "../../http/error-handler.js";
import { credentialParametersIn } from "../../http/url-credentials.js";
import type { Services } from "../../services.js";
import { recordIssuance } from "../limits/issuance-limits.js";
import { issueAccessToken } from "../tokens/access-token.js";
import { authenticateClient } from "./authenticate-client.js";
import { presentedClient } from "./client-credentials.js";
import { invalidRequest, invalidTarget, OAuthError, tooManyRequests, unsupportedGrantType } from "./oauth-error.js";
import { readTokenParameters } from "./token-parameters.js";

/**
 * `POST /oauth/token`: the client credentials grant (RFC 6749 §4.4) issuing RFC 9068 access tokens for the data
 * API. The checks run in this order, each failing with its own OAuth error:
 *
 * | check                          | error                                   |
 * | ------------------------------ | --------------------------------------- |
 * | no credential in the URL       | invalid_request                         |
 * | body is a JSON object or form  | invalid_request                         |
 * | one client auth method         | invalid_request                         |
 * | grant_type client_credentials  | invalid_request / unsupported_grant_type |
 * | not throttled for failures     | slow_down (429)                         |
 * | client id and secret           | invalid_client (401)                    |
 * | audience is the API's          | invalid_request / invalid_target        |
 * | under the issuance limits      | slow_down (429), or a warning header    |
 */
export function registerTokenRoute(app: FastifyInstance, services: Services): void {
  const { config, db, keys } = services;

  app.post(
    "/oauth/token",
    {
      schema: {
        summary: "Obtain a bearer token for the data API (client credentials grant)",
        tags: ["auth"],
        response: { 200: TokenResponse, "4xx": OAuthErrorResponse },
      },
    },
    async (request, reply) => {
      const inUrl = credentialParametersIn(request.url);
      if (inUrl.length > 0) {
        throw invalidRequest(`${inUrl.join(", ")} in the URL: credentials are refused there, send them in the body`);
      }
      const parameters = readTokenParameters(request.body);
      const presented = presentedClient(request.headers.authorization, parameters);
      const grantType = parameters.grant_type;
      if (grantType === undefined) throw invalidRequest("grant_type is required");
      if (grantType !== "client_credentials") throw unsupportedGrantType(grantType);

      const client = await authenticateClient(services, presented, request.ip);

      const audience = parameters.audience;
      if (audience === undefined) throw invalidRequest(`audience is required: "${config.apiAudience}"`);
      if (audience !== config.apiAudience) throw invalidTarget(audience, config.apiAudience);

      const verdict = await recordIssuance(db, client.client_id, config.tokenLimits);
      if (!verdict.allowed) {
        request.log.warn({ client_id: client.client_id, reason: verdict.reason }, "token refused: frequent caller");
        throw tooManyRequests(`${verdict.reason}: reuse each token for its 24 hours`, verdict.retryAfterSeconds);
      }
      if (verdict.warning) reply.header("lotline-warning", verdict.warning);

      const token = await issueAccessToken(keys, config, { orgId: client.org_id, clientId: client.client_id });
      request.log.info({ client_id: client.client_id, org_id: client.org_id }, "access token issued");
      return reply.headers(NO_STORE).send(token);
    },
  );

  app.route({
    method: ["GET", "PUT", "PATCH", "DELETE"],
    url: "/oauth/token",
    schema: { hide: true },
    handler: async (_request, reply) => {
      reply.header("allow", "POST");
      throw new OAuthError("invalid_request", "the token endpoint accepts POST only", 405);
    },
  });
}
