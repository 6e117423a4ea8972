import { ApiError } from "../errors/api-error.js";
import type { TokenProvider } from "../tokens/token-provider.js";
import { retryAfterMs } from "./retry-after.js";

/** How one client sends its requests. */
export interface Transport {
  baseUrl: string;
  tokens: TokenProvider;
  fetch: typeof fetch;
  maxRetries: number;
  maxRetryDelayMs: number;
}

/** One API call, before retries. */
export interface ApiRequest {
  method: "GET" | "POST";
  path: string;
  query?: Record<string, string | number | undefined> | undefined;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Answers worth waiting for: the server is rate limiting (429) or briefly unavailable (503). */
const RETRY_STATUSES = new Set([429, 503]);

/**
 * Sends `request` with a bearer token and returns the parsed JSON of a 2xx answer (undefined when empty).
 * Retries 429 and 503 up to `maxRetries` times, waiting as `Retry-After` says (capped), else backing off
 * exponentially; on a 401, invalidates the token once and retries with a fresh one. The request, its headers
 * (an `Idempotency-Key` included) and its body are the same on every attempt. Throws {@link ApiError}.
 */
export async function sendRequest(transport: Transport, request: ApiRequest): Promise<unknown> {
  const url = requestUrl(transport.baseUrl, request);
  let retries = 0;
  let reauthenticated = false;
  for (;;) {
    const token = await transport.tokens.getToken();
    const response = await transport.fetch(url, {
      method: request.method,
      headers: {
        accept: "application/json, application/problem+json",
        authorization: `Bearer ${token}`,
        ...(request.body === undefined ? {} : { "content-type": "application/json" }),
        ...request.headers,
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    if (response.status === 401 && !reauthenticated) {
      // The token may have been revoked or its signing key rotated out: one fresh token, then give up.
      reauthenticated = true;
      await response.body?.cancel();
      await transport.tokens.invalidate(token);
      continue;
    }
    if (RETRY_STATUSES.has(response.status) && retries < transport.maxRetries) {
      const wait = retryDelayMs(response, retries, transport.maxRetryDelayMs);
      retries += 1;
      await response.body?.cancel();
      await sleep(wait);
      continue;
    }
    return readAnswer(response);
  }
}

function requestUrl(baseUrl: string, request: ApiRequest): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, "")}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.href;
}

/** The server's `Retry-After` when given, else 0.5 s, 1 s, 2 s, …; never more than `capMs`. */
function retryDelayMs(response: Response, retry: number, capMs: number): number {
  const asked = retryAfterMs(response.headers.get("retry-after"), Date.now());
  return Math.min(asked ?? 500 * 2 ** retry, capMs);
}

async function readAnswer(response: Response): Promise<unknown> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.ok) return body;
  const problem = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  throw new ApiError(response.status, {
    code: stringField(problem.code),
    title: stringField(problem.title),
    detail: stringField(problem.detail),
    body,
  });
}

function stringField(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
