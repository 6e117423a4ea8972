import type { FastifyInstance } from "fastify";

/** More than any body a client library sends by default (`{}`, an empty form), far less than a real payload. */
const TOLERATED_BODY_BYTES = 1024;

/**
 * Makes `scope` read every request body, of any Content-Type or none, as no body at all: for an endpoint whose
 * interface says "Body: none" (INTERFACE.md §4.1), since many HTTP clients send `Content-Type: application/json`
 * with an empty body by default, and such a request must reach the credential check rather than be refused as
 * unreadable JSON. A body larger than any such default is still refused (413), so nobody makes the service read
 * megabytes it ignores. Only for a scope of its own: it replaces every parser of `scope`.
 */
export function ignoreRequestBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: TOLERATED_BODY_BYTES }, (_request, _body, done) =>
    done(null, undefined),
  );
}
