import { PageSession, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { NotFoundError } from "../../errors.js";
import { HttpProblem } from "../../http/problem.js";
import { buildPageSession } from "../../pages/page-session.js";
import type { Services } from "../../services.js";

/**
 * `GET /embed/api/session`: the page's session (PageSession), the same a page finds inlined at load. A page also
 * asks it with a token its host handed over, to check that token before it uses it.
 */
export function registerSessionRoute(api: FastifyInstance, services: Services): void {
  api.get(
    "/session",
    { schema: { hide: true, response: { 200: PageSession, "4xx": Problem } } },
    async (request, reply) => {
      const session = await buildPageSession(services, request.session).catch((error: unknown) => {
        // A genuine token of an organization that no longer exists speaks for nobody: the session has ended.
        if (error instanceof NotFoundError) {
          throw new HttpProblem(401, "session_ended", "Unauthorized", "the token's organization no longer exists", {
            "www-authenticate": 'Bearer realm="lotline-embed"',
          });
        }
        throw error;
      });
      return reply.header("cache-control", "no-store").send(session);
    },
  );
}
