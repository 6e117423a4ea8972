import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What a loopback server saw of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** A plain HTTP server on 127.0.0.1 for tests of what happens on the wire: stalls, resets, slow answers. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request received, in order. */
  requests: SeenRequest[];
  /**
   * Resolves once `count` requests have arrived. A request the client wrote just before it gave up may still be
   * waiting in the socket when the client's error comes back, above all on a busy machine.
   */
  received(count: number): Promise<void>;
  /** Drops every open connection, then stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a loopback server that hands each request to `handle` with its 0-based index. A handler that does
 * nothing leaves the request unanswered; `response.socket?.destroy()` resets the connection.
 */
export async function startLoopbackServer(
  handle: (request: IncomingMessage, response: ServerResponse, index: number) => void,
): Promise<LoopbackServer> {
  const requests: SeenRequest[] = [];
  const waiting = new Set<() => void>();
  const server = createServer((request, response) => {
    const index = requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers }) - 1;
    for (const check of waiting) check();
    handle(request, response, index);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    received: (count) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (requests.length < count) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Answers `body` as JSON with `status`. */
export function answerJson(response: ServerResponse, body: unknown, status = 200): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/**
 * A loopback port nobody listens on right now, for a server another process will start (which cannot hand its
 * port back before the caller needs it, e.g. to register a callback prefix).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
