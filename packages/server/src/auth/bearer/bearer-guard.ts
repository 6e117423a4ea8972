import type { FastifyRequest } from "fastify";
import { HttpProblem } from "../../http/problem.js";
import type { Services } from "../../services.js";
import { type AccessTokenSubject, verifyAccessToken } from "../tokens/access-token.js";
import { InvalidTokenError } from "../tokens/jwt.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Who the bearer token speaks for; set by the bearer guard on every `/v1` route. */
    caller: AccessTokenSubject;
  }
}

const REALM = 'Bearer realm="lotline"';
/** RFC 6750 §2.1: the b64token syntax. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The resource-server check in front of `/v1/*` (RFC 6750 §3): no Bearer credentials → 401 with a bare challenge;
 * malformed → 400 `invalid_request`; any token that fails verification, or whose client has been revoked (as
 * {@link Revocations} last loaded them), → 401 `invalid_token`.
 */
export function bearerGuard({ keys, config, revocations }: Services) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer(?:\s+(.*))?$/i);
    if (!match) {
      throw new HttpProblem(401, "unauthorized", "Unauthorized", "a bearer token is required", {
        "www-authenticate": REALM,
      });
    }
    const token = match[1]?.trim() ?? "";
    if (!B64TOKEN.test(token)) throw challenge(400, "invalid_request", "the Authorization header is malformed");
    let caller: AccessTokenSubject;
    try {
      caller = await verifyAccessToken(keys, config, token);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw challenge(401, "invalid_token", error.message);
      throw error;
    }
    if (await revocations.isClientRevoked(caller.clientId)) {
      throw challenge(401, "invalid_token", "the client has been revoked");
    }
    request.caller = caller;
  };
}

function challenge(status: number, error: string, description: string): HttpProblem {
  const title = status === 400 ? "Bad Request" : "Unauthorized";
  return new HttpProblem(status, error, title, description, {
    "www-authenticate": `${REALM}, error="${error}", error_description="${description.replaceAll('"', "'")}"`,
  });
}
