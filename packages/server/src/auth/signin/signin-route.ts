import { IframeTokenResponse, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { NO_STORE } from "../../http/error-handler.js";
import { HttpProblem } from "../../http/problem.js";
import type { Services } from "../../services.js";
import { verifyIframeKey } from "../../tenancy/iframe-keys.js";
import { MalformedBasicError, parseBasicCredentials } from "../basic-credentials.js";
import { issueIframeToken } from "../tokens/iframe-token.js";

const CHALLENGE = { "www-authenticate": 'Basic realm="lotline-iframe", charset="UTF-8"', ...NO_STORE };

const unauthorized = (detail: string) => new HttpProblem(401, "invalid_credentials", "Unauthorized", detail, CHALLENGE);

/**
 * `POST /auth/signin/integration`: Basic `org_id:iframe_api_key` (split at the first colon, no body) → a JWT for
 * the embeddable pages, `{token, expires}` (INTERFACE.md §4.1). Meant for the host's backend: the key must never
 * reach a browser.
 */
export function registerSigninRoute(app: FastifyInstance, services: Services): void {
  const { config, db, digester, keys, authFailures } = services;
  const limits = config.authFailureLimits;

  app.post(
    "/auth/signin/integration",
    {
      schema: {
        summary: "Obtain a JWT for the embeddable pages",
        tags: ["auth"],
        response: { 200: IframeTokenResponse, "4xx": Problem },
      },
    },
    async (request, reply) => {
      let credentials: ReturnType<typeof parseBasicCredentials>;
      try {
        credentials = parseBasicCredentials(request.headers.authorization);
      } catch (error) {
        if (error instanceof MalformedBasicError) throw unauthorized(error.message);
        throw error;
      }
      if (!credentials) throw unauthorized("Basic credentials (organization id and iframe API key) are required");

      const orgKey = `org:${credentials.username}`;
      const ipKey = `ip:${request.ip}`;
      const retryAfter = Math.max(
        authFailures.retryAfterSeconds(orgKey, limits.perClientId),
        authFailures.retryAfterSeconds(ipKey, limits.perIp),
      );
      if (retryAfter > 0) {
        throw new HttpProblem(
          429,
          "too_many_failures",
          "Too Many Requests",
          "too many failed sign-ins; try again later",
          {
            "retry-after": String(retryAfter),
            ...NO_STORE,
          },
        );
      }

      if (!(await verifyIframeKey(db, digester, credentials.username, credentials.password))) {
        authFailures.recordFailure(orgKey);
        authFailures.recordFailure(ipKey);
        throw unauthorized("the organization id or iframe API key is wrong");
      }
      const token = await issueIframeToken(keys, config, credentials.username);
      return reply.headers(NO_STORE).send(token);
    },
  );
}
