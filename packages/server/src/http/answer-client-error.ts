import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { HttpProblem } from "./problem.js";

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser cannot read at all (not HTTP, headers too large, too
 * slow) is answered as a problem too, on the raw socket since there is no request to reply to, and the connection
 * closed, as Node itself does.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // The client is gone: there is nobody to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const problem = clientProblem(error.code);
  if (socket.writable) {
    const body = JSON.stringify(problem.toBody());
    socket.write(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
        "content-type: application/problem+json\r\n" +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        `connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

function clientProblem(code: string | undefined): HttpProblem {
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return new HttpProblem(408, "request_timeout", "Request Timeout", "the request did not arrive in time");
  }
  if (code === "HPE_HEADER_OVERFLOW") {
    return new HttpProblem(
      431,
      "headers_too_large",
      "Request Header Fields Too Large",
      "the request's headers are too large",
    );
  }
  return new HttpProblem(400, "malformed_request", "Bad Request", "the request is not well-formed HTTP");
}
