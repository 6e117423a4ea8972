import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { OAuthError } from "../auth/oauth/oauth-error.js";
import { DomainError, InvalidInputError, NotFoundError } from "../errors.js";
import { HttpProblem, sendProblem } from "./problem.js";

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
    if (isOAuthPath(request) && error.statusCode !== undefined && error.statusCode < 500) {
      // Body parsing failed before the token endpoint's own checks could run: still answer in OAuth's words.
      return reply
        .code(error.statusCode === 415 ? 400 : error.statusCode)
        .headers(NO_STORE)
        .send({ error: "invalid_request", error_description: error.message });
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

function isOAuthPath(request: FastifyRequest): boolean {
  return request.url.startsWith("/oauth/");
}

function toProblem(error: FastifyError, request: FastifyRequest): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof NotFoundError) return new HttpProblem(404, error.code, "Not Found", error.message);
  if (error instanceof InvalidInputError)
    return new HttpProblem(422, error.code, "Unprocessable Content", error.message);
  if (error instanceof DomainError) return new HttpProblem(409, error.code, "Conflict", error.message);
  if (error.validation) return new HttpProblem(400, "invalid_request", "Bad Request", error.message);
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new HttpProblem(error.statusCode, (error.code ?? "bad_request").toLowerCase(), "Bad Request", error.message);
  }
  request.log.error({ err: error }, "unhandled error");
  return new HttpProblem(500, "internal_error", "Internal Server Error", "the service failed; the error is logged");
}
