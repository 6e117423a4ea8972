import type { FastifyRequest } from "fastify";
import { HttpProblem } from "../../http/problem.js";
import type { Services } from "../../services.js";
import type { IframeSession } from "../tokens/iframe-token.js";
import { InvalidTokenError } from "../tokens/jwt.js";
import { verifyLiveIframeToken } from "./live-iframe-token.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The iframe session a page API request speaks for; set by the iframe guard on every `/embed/api` route. */
    session: IframeSession;
  }
}

/**
 * The check in front of the page API (`/embed/api/*`): the page sends its iframe JWT as `Authorization: Bearer`.
 * Any failure is a 401 `session_ended`, the one answer a page needs to send its user to `/login`. Data API
 * tokens fail here (their `typ` and audience differ), as iframe tokens fail in front of `/v1`; so does a session
 * whose iframe key was revoked.
 */
export function iframeGuard(services: Services) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = request.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (token === undefined) throw sessionEnded("an iframe session token is required");
    try {
      request.session = await verifyLiveIframeToken(services, token);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw sessionEnded(error.message);
      throw error;
    }
  };
}

function sessionEnded(detail: string): HttpProblem {
  return new HttpProblem(401, "session_ended", "Unauthorized", detail, {
    "www-authenticate": 'Bearer realm="lotline-embed"',
  });
}
