import type { FastifyRequest } from "fastify";

/** Whether the client asks for CSV (`Accept: text/csv`) rather than the route's JSON or NDJSON. */
export function wantsCsv(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? "";
  return /\btext\/csv\b/i.test(accept) && !/application\/x-ndjson/i.test(accept);
}
