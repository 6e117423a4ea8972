import { STATUS_CODES } from "node:http";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { InvalidRequestProblem } from "../api/strict-input/invalid-request.js";
import { validationFaults } from "../api/strict-input/validation-faults.js";
import { OAuthError } from "../auth/oauth/oauth-error.js";
import { BusyError } from "../compute/busy-error.js";
import { DomainError, InvalidInputError, NotFoundError } from "../errors.js";
import { InvalidCustomFieldsError } from "../tenancy/custom-fields-error.js";
import { HttpProblem, sendProblem } from "./problem.js";
import { type UnreadableRequest, unreadableRequest } from "./unreadable-request.js";

export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

/**
 * The one place errors become responses: OAuth errors as RFC 6749 JSON, everything else as problem+json.
 * Unexpected errors are logged and answered without their details.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof OAuthError) {
      return reply
        .code(error.status)
        .headers({ ...NO_STORE, ...error.headers })
        .send({ error: error.error, error_description: error.description });
    }
    const unreadable = unreadableRequest(error);
    if (isOAuthPath(request) && unreadable) {
      // Body parsing failed before the token endpoint's own checks could run: still answer in OAuth's words.
      return reply
        .code(unreadable.status === 415 ? 400 : unreadable.status)
        .headers(NO_STORE)
        .send({ error: "invalid_request", error_description: oauthDetail(unreadable) });
    }
    return sendProblem(reply, toProblem(error, request));
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      new HttpProblem(404, "not_found", "Not Found", `no route for ${request.method} ${request.url.split("?")[0]}`),
    ),
  );
}

/**
 * Fastify's `frameworkErrors` option: what it refuses before a route is chosen (an address whose percent-encoding
 * does not decode) is answered like every other error, not in Fastify's own JSON with its own code.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendProblem(reply, toProblem(error, request));
}

/** The token endpoint reads form bodies too, which the general wording leaves out. */
function oauthDetail({ status, detail }: UnreadableRequest): string {
  return status === 415 ? "send the parameters as application/x-www-form-urlencoded or application/json" : detail;
}

function isOAuthPath(request: FastifyRequest): boolean {
  return request.url.startsWith("/oauth/");
}

function toProblem(error: FastifyError, request: FastifyRequest): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof NotFoundError) return new HttpProblem(404, error.code, "Not Found", error.message);
  if (error instanceof InvalidCustomFieldsError) {
    return new InvalidRequestProblem(error.faults, { status: 422, code: error.code, detail: error.message });
  }
  if (error instanceof InvalidInputError)
    return new HttpProblem(422, error.code, "Unprocessable Content", error.message);
  if (error instanceof BusyError) {
    const headers = { "retry-after": String(error.retryAfterSeconds) };
    return new HttpProblem(503, error.code, "Service Unavailable", error.message, headers);
  }
  if (error instanceof DomainError) return new HttpProblem(409, error.code, "Conflict", error.message);
  if (error.validation) {
    const faults = validationFaults(error.validation, error.validationContext ?? "input");
    return new InvalidRequestProblem(faults, { detail: error.message });
  }
  const unreadable = unreadableRequest(error);
  if (unreadable) {
    const { status, code, detail } = unreadable;
    return new HttpProblem(status, code, STATUS_CODES[status] ?? "Bad Request", detail);
  }
  request.log.error({ err: error }, "unhandled error");
  return new HttpProblem(500, "internal_error", "Internal Server Error", "the service failed; the error is logged");
}
