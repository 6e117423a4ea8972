import fc from "fast-check";
import type { FastifyInstance } from "fastify";
import { type FuzzRequest, type FuzzTenant, fuzzRequests } from "./fuzz-requests.js";

/** What a fuzz run saw: answers counted by status, and every answer that breaks a rule. */
export interface FuzzOutcome {
  seed: number;
  sent: number;
  broken: number;
  statuses: Map<number, number>;
  failures: Array<{ request: FuzzRequest; status: number; body: string; rule: string }>;
}

/**
 * Sends `count` generated requests (seeded: the same seed sends the same requests) and judges each answer: never a
 * 5xx; never a 2xx, nor anything but a 4xx, for a request that breaks its schema; and an `invalid_request`
 * problem always names its fields in `errors`.
 */
export async function runFuzz(
  app: FastifyInstance,
  credentials: FuzzTenant,
  { count, seed }: { count: number; seed: number },
): Promise<FuzzOutcome> {
  const document = (await app.inject({ url: "/v1/openapi.json" })).json();
  const requests = fc.sample(fuzzRequests(document, credentials), { numRuns: count, seed });
  const outcome: FuzzOutcome = { seed, sent: 0, broken: 0, statuses: new Map(), failures: [] };
  for (const request of requests) {
    const response = await app.inject({
      method: request.method as "GET",
      url: request.url,
      headers: request.headers,
      ...(request.payload === undefined ? {} : { payload: request.payload as string }),
    });
    outcome.sent++;
    if (request.breaks) outcome.broken++;
    outcome.statuses.set(response.statusCode, (outcome.statuses.get(response.statusCode) ?? 0) + 1);
    const rule = brokenRule(request, response.statusCode, response.headers["content-type"], response.body);
    if (rule) outcome.failures.push({ request, status: response.statusCode, body: response.body.slice(0, 500), rule });
  }
  return outcome;
}

function brokenRule(request: FuzzRequest, status: number, type: unknown, body: string): string | undefined {
  if (status >= 500) return "no 5xx";
  if (request.breaks && (status < 400 || status >= 500)) return "a request breaking its schema is refused with a 4xx";
  if (status === 400 && String(type).startsWith("application/problem+json")) {
    const problem = JSON.parse(body) as { code?: string; errors?: Array<{ field?: unknown }> };
    const named = Array.isArray(problem.errors) && problem.errors.length > 0;
    if (problem.code === "invalid_request" && !(named && problem.errors?.every((e) => typeof e.field === "string"))) {
      return "invalid_request names its fields in errors";
    }
  }
  return undefined;
}

/** The statuses and their counts, `202 × 31, 400 × 180, …`, lowest status first. */
export function describeStatuses(statuses: ReadonlyMap<number, number>): string {
  return [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status} × ${count}`)
    .join(", ");
}
