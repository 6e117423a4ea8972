import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createApiClient,
  createTokenProvider,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from "@lotline/host-sdk/server";

/**
 * A round trip with the INSTALLED SDK. packed-sdk.test.ts copies this file into a fresh project where the packed
 * tarball was installed, compiles it there and runs it with `node`, so `@lotline/host-sdk` is that project's
 * node_modules copy, not this repository's. Against a running Lotline it gets a data API token, places an order
 * with a callback URL, receives the signed `order.complete` webhook on loopback and verifies it, then prints one
 * JSON line ({@link RoundTrip}) and exits. In the repository it is only type-checked.
 *
 * Settings come from the environment as the integration guide names them (`LOTLINE_URL`, `LOTLINE_CLIENT_ID`,
 * `LOTLINE_CLIENT_SECRET`, `LOTLINE_AUDIENCE`, `LOTLINE_WEBHOOK_SECRET`), plus `ROUND_TRIP_ADDRESS` (an address
 * the service knows) and `ROUND_TRIP_CALLBACK_PORT` (a free loopback port under a registered callback prefix).
 */

/** What the round trip saw, printed as one JSON line. */
export interface RoundTrip {
  /** The number of dot-separated parts of the data API token (3 for a JWT). */
  tokenParts: number;
  /** `GET /v1/me`. */
  me: unknown;
  orderId: string;
  propertyId: number;
  /** The verified webhook. */
  event: WebhookEvent;
  /** The `code` of the WebhookVerificationError that the same delivery with one byte added got. */
  tamperedCode: string;
}

/** No webhook within this long fails the run (the service delivers within a second or two). */
const WEBHOOK_WAIT_MS = 30_000;

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** A verified delivery, and how the installed SDK refused a tampered copy of it. */
interface Received {
  event: WebhookEvent;
  tamperedCode: string;
}

/**
 * Listens on `port` for one webhook and verifies its raw body with the installed SDK. `delivery` settles with the
 * first delivery: verified, or refused (answered 400, and the run fails with the reason).
 */
async function receiveWebhook(port: number, secret: string): Promise<{ delivery: Promise<Received>; server: Server }> {
  let settle: { resolve(received: Received): void; reject(error: unknown): void } | undefined;
  const delivery = new Promise<Received>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      try {
        const event = verifyWebhook({ secret, headers: request.headers, body });
        response.writeHead(204).end();
        settle?.resolve({ event, tamperedCode: tamperedCode(secret, request.headers, body) });
      } catch (error) {
        response.writeHead(400).end();
        settle?.reject(error);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return { delivery, server };
}

/** The code the installed SDK refuses the delivery with once a byte is added to its body. */
function tamperedCode(secret: string, headers: Record<string, string | string[] | undefined>, body: Buffer): string {
  try {
    verifyWebhook({ secret, headers, body: Buffer.concat([body, Buffer.from(" ")]) });
    return "accepted";
  } catch (error) {
    // instanceof works only if the installed package's error class is the one it throws.
    return error instanceof WebhookVerificationError ? error.code : `not a WebhookVerificationError: ${error}`;
  }
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

async function roundTrip(): Promise<RoundTrip> {
  const lotline = setting("LOTLINE_URL");
  const secret = setting("LOTLINE_WEBHOOK_SECRET");
  const { delivery, server } = await receiveWebhook(Number(setting("ROUND_TRIP_CALLBACK_PORT")), secret);
  try {
    // The endpoints' full URLs, as an OAuth library takes them (the origin alone works too).
    const tokens = createTokenProvider({
      tokenUrl: `${lotline}/oauth/token`,
      clientId: setting("LOTLINE_CLIENT_ID"),
      clientSecret: setting("LOTLINE_CLIENT_SECRET"),
      audience: setting("LOTLINE_AUDIENCE"),
    });
    const api = createApiClient({ baseUrl: `${lotline}/v1`, tokens });
    const token = await tokens.getToken();
    const me = await api.me();
    const { port } = server.address() as AddressInfo;
    const placed = await api.createOrder({
      address: setting("ROUND_TRIP_ADDRESS"),
      external_id: "POL-PACKED-1",
      callback_url: `http://127.0.0.1:${port}/hooks/orders`,
    });
    const received = await within(delivery, WEBHOOK_WAIT_MS, "webhook");
    return {
      tokenParts: token.split(".").length,
      me,
      orderId: placed.order_id,
      propertyId: placed.property_id,
      event: received.event,
      tamperedCode: received.tamperedCode,
    };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

try {
  process.stdout.write(`${JSON.stringify(await roundTrip())}\n`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
