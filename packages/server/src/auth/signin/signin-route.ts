import { IframeTokenResponse, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { NO_STORE } from "../../http/error-handler.js";
import { HttpProblem } from "../../http/problem.js";
import { credentialParametersIn } from "../../http/url-credentials.js";
import type { Services } from "../../services.js";
import { findIframeKey } from "../../tenancy/iframe-keys.js";
import { MalformedBasicError, parseBasicCredentials } from "../basic-credentials.js";
import { recordFailedAttempt, recordSuccessfulAttempt, retryAfterSeconds } from "../limits/authentication-attempts.js";
import { issueIframeToken } from "../tokens/iframe-token.js";
import { ignoreRequestBodies } from "./ignore-request-bodies.js";

const CHALLENGE = { "www-authenticate": 'Basic realm="lotline-iframe", charset="UTF-8"', ...NO_STORE };

const unauthorized = (detail: string) => new HttpProblem(401, "invalid_credentials", "Unauthorized", detail, CHALLENGE);

/**
 * `POST /auth/signin/integration`: Basic `org_id:iframe_api_key` (split at the first colon, no body) → a JWT for
 * the embeddable pages, `{token, expires}` (INTERFACE.md §4.1). Meant for the host's backend: the key must never
 * reach a browser.
 */
export function registerSigninRoute(app: FastifyInstance, services: Services): void {
  // Whatever a client's HTTP library sends as a body is ignored, in a scope of its own so no other route is.
  app.register(async (scope) => {
    ignoreRequestBodies(scope);
    registerSignin(scope, services);
  });
}

function registerSignin(app: FastifyInstance, services: Services): void {
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
      const inUrl = credentialParametersIn(request.url);
      if (inUrl.length > 0) {
        const detail = `${inUrl.join(", ")} in the URL: credentials are refused there, send Basic credentials instead`;
        throw new HttpProblem(400, "invalid_request", "Bad Request", detail, NO_STORE);
      }
      let credentials: ReturnType<typeof parseBasicCredentials>;
      try {
        credentials = parseBasicCredentials(request.headers.authorization);
      } catch (error) {
        if (error instanceof MalformedBasicError) throw unauthorized(error.message);
        throw error;
      }
      if (!credentials) throw unauthorized("Basic credentials (organization id and iframe API key) are required");

      const attempt = { credential: `org:${credentials.username}`, address: request.ip };
      const retryAfter = retryAfterSeconds(authFailures, limits, attempt);
      if (retryAfter > 0) {
        throw new HttpProblem(
          429,
          "too_many_failures",
          "Too Many Requests",
          "too many failed sign-ins from this address; try again later",
          {
            "retry-after": String(retryAfter),
            ...NO_STORE,
          },
        );
      }

      const iframeKeyId = await findIframeKey(db, digester, credentials.username, credentials.password);
      if (iframeKeyId === undefined) {
        recordFailedAttempt(authFailures, attempt);
        throw unauthorized("the organization id or iframe API key is wrong");
      }
      recordSuccessfulAttempt(authFailures, attempt);
      const token = await issueIframeToken(keys, config, credentials.username, iframeKeyId);
      return reply.headers(NO_STORE).send(token);
    },
  );
}
