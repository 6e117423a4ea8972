import type { Problem } from "@lotline/contract";
import type { FastifyReply } from "fastify";

/**
 * An HTTP error answered as `application/problem+json` (RFC 9457). `code` is the stable machine code; `headers`
 * carry what the answer needs beside the body, such as `WWW-Authenticate` or `Retry-After`.
 */
export class HttpProblem extends Error {
  override name = "HttpProblem";

  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? title);
  }

  toBody(): Problem {
    return {
      type: `urn:lotline:problem:${this.code}`,
      title: this.title,
      status: this.status,
      code: this.code,
      ...(this.detail === undefined ? {} : { detail: this.detail }),
    };
  }
}

export function sendProblem(reply: FastifyReply, problem: HttpProblem): FastifyReply {
  return reply.code(problem.status).headers(problem.headers).type("application/problem+json").send(problem.toBody());
}
