import type { FieldFault } from "@lotline/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { OAuthError } from "../../auth/oauth/oauth-error.js";
import { findInputFault } from "./find-input-fault.js";
import { InvalidRequestProblem } from "./invalid-request.js";
import { parseParameters } from "./parse-parameters.js";

/**
 * Strict input on every route, before its schema runs: a request carrying text no database can store (NUL, a lone
 * surrogate) or JSON nested too deeply is refused naming the field — in OAuth's words on `/oauth/`, as a problem
 * elsewhere — and query and path parameters become numbers only when written exactly as numbers. Register before
 * any route.
 */
export function installStrictInput(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    const fault =
      findInputFault(request.params, "path") ??
      findInputFault(request.query, "query") ??
      findInputFault(request.body, "body");
    if (fault) throw refusal(request, fault);
    const schema = request.routeOptions.schema;
    parseParameters(request.query, schema?.querystring);
    parseParameters(request.params, schema?.params);
  });
}

function refusal(request: FastifyRequest, fault: FieldFault): Error {
  if (request.url.startsWith("/oauth/")) return new OAuthError("invalid_request", `${fault.field} ${fault.reason}`);
  return new InvalidRequestProblem([fault]);
}
