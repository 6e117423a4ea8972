import { ApiError } from "../errors/api-error.js";
import { ApiNetworkError } from "../errors/api-network-error.js";
import type { TokenProvider } from "../tokens/token-provider.js";
import { retryAfterMs } from "./retry-after.js";

/** How one client sends its requests. */
export interface Transport {
  /** What precedes the requests' paths (`/v1/…`): Lotline's origin, and a proxy's prefix if there is one. */
  baseUrl: string;
  tokens: TokenProvider;
  fetch: typeof fetch;
  maxRetries: number;
  maxRetryDelayMs: number;
  /** How long one attempt (the request and its answer's body) may take before it is aborted. */
  timeoutMs: number;
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

/** A whole HTTP answer: its status line and headers, and its body as text. */
interface Answer {
  response: Response;
  text: string;
}

/**
 * Sends `request` with a bearer token and returns the parsed JSON of a 2xx answer (undefined when empty).
 * Each attempt is aborted after `timeoutMs`. Retries 429 and 503 up to `maxRetries` times, waiting as
 * `Retry-After` says (capped), else backing off exponentially; on a 401, invalidates the token once and retries
 * with a fresh one. An attempt that got no answer (connection refused or reset, timeout) is retried within the
 * same `maxRetries`, with the same backoff, only when repeating it is safe: a GET, or a request carrying an
 * `Idempotency-Key`. The request, its headers (the `Idempotency-Key` included) and its body are the same on every
 * attempt. Throws {@link ApiError} for an error answer, {@link ApiNetworkError} when there was none.
 */
export async function sendRequest(transport: Transport, request: ApiRequest): Promise<unknown> {
  const url = requestUrl(transport.baseUrl, request);
  const repeatable = request.method === "GET" || request.headers?.["idempotency-key"] !== undefined;
  let retries = 0;
  let reauthenticated = false;
  for (;;) {
    const token = await transport.tokens.getToken();
    const answer = await attempt(transport, url, request, token);
    if (answer instanceof ApiNetworkError) {
      if (!repeatable || retries >= transport.maxRetries) throw answer;
      const wait = Math.min(500 * 2 ** retries, transport.maxRetryDelayMs);
      retries += 1;
      await sleep(wait);
      continue;
    }
    const { response } = answer;
    if (response.status === 401 && !reauthenticated) {
      // The token may have been revoked or its signing key rotated out: one fresh token, then give up.
      reauthenticated = true;
      await transport.tokens.invalidate(token);
      continue;
    }
    if (RETRY_STATUSES.has(response.status) && retries < transport.maxRetries) {
      const wait = retryDelayMs(response, retries, transport.maxRetryDelayMs);
      retries += 1;
      await sleep(wait);
      continue;
    }
    return readAnswer(answer);
  }
}

/** One HTTP exchange, its body read in full; an {@link ApiNetworkError} when it got no whole answer. */
async function attempt(
  transport: Transport,
  url: string,
  request: ApiRequest,
  token: string,
): Promise<Answer | ApiNetworkError> {
  const signal = AbortSignal.timeout(transport.timeoutMs);
  try {
    const response = await transport.fetch(url, {
      method: request.method,
      headers: {
        accept: "application/json, application/problem+json",
        authorization: `Bearer ${token}`,
        ...(request.body === undefined ? {} : { "content-type": "application/json" }),
        ...request.headers,
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal,
    });
    return { response, text: await response.text() };
  } catch (cause) {
    return signal.aborted
      ? new ApiNetworkError(
          "api_timeout",
          `data API request ${request.method} ${request.path} timed out after ${transport.timeoutMs} ms`,
          { cause },
        )
      : new ApiNetworkError("api_unreachable", `data API request ${request.method} ${request.path} failed`, { cause });
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

function readAnswer({ response, text }: Answer): unknown {
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
