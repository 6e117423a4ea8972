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
  /**
   * How long one attempt (the request and its answer's body; the answer's head only, for {@link openStream}) may
   * take before it is aborted.
   */
  timeoutMs: number;
}

/** One API call, before retries. */
export interface ApiRequest {
  method: "GET" | "PUT" | "DELETE" | "POST";
  path: string;
  query?: Record<string, string | number | undefined> | undefined;
  /** A body sent as JSON. */
  body?: unknown;
  /** A body sent as it is, with its media type; a stream can be sent once only, so its request is never repeated. */
  content?: { type: string; data: string | Uint8Array | ReadableStream<Uint8Array> } | undefined;
  headers?: Record<string, string>;
  /** This request's timeout instead of the transport's. */
  timeoutMs?: number | undefined;
}

/** Answers worth waiting for: the server is rate limiting (429) or briefly unavailable (503). */
const RETRY_STATUSES = new Set([429, 503]);

/** Methods whose request, made twice, has the effect of making it once: one that got no answer may be repeated. */
const IDEMPOTENT_METHODS = new Set<ApiRequest["method"]>(["GET", "PUT", "DELETE"]);

/** An HTTP answer: its status line and headers, and its body as text (left unread in a streamed 2xx answer). */
interface Answer {
  response: Response;
  text: string;
}

/**
 * Sends `request` with a bearer token and returns the parsed JSON of a 2xx answer (undefined when empty).
 * Each attempt is aborted after `timeoutMs`. Retries 429 and 503 up to `maxRetries` times, waiting as
 * `Retry-After` says (capped), else backing off exponentially; on a 401, invalidates the token once and retries
 * with a fresh one. An attempt that got no answer (connection refused or reset, timeout) is retried within the
 * same `maxRetries`, with the same backoff, only when repeating it is safe: a GET, PUT or DELETE, or a request
 * carrying an `Idempotency-Key`. The request, its headers (the `Idempotency-Key` included) and its body are the
 * same on every attempt; a request whose body is a stream is attempted once. Throws {@link ApiError} for an error
 * answer, {@link ApiNetworkError} when there was none.
 */
export async function sendRequest(transport: Transport, request: ApiRequest): Promise<unknown> {
  return readAnswer(await exchange(transport, request, false));
}

/**
 * Sends `request` as {@link sendRequest} does, retries included, and returns the body of its 2xx answer unread,
 * to be read as it arrives. `timeoutMs` covers getting the answer's head only: reading the body is the caller's
 * to time. Throws as {@link sendRequest} does.
 */
export async function openStream(transport: Transport, request: ApiRequest): Promise<ReadableStream<Uint8Array>> {
  const answer = await exchange(transport, request, true);
  if (!answer.response.ok) return throwApiError(answer);
  return answer.response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
}

/** The retry loop of both: the last answer worth returning, or the error of the last attempt that got none. */
async function exchange(transport: Transport, request: ApiRequest, streamed: boolean): Promise<Answer> {
  const url = requestUrl(transport.baseUrl, request);
  // A stream is consumed by the attempt that sends it: there is nothing left to send again.
  const replayable = !(request.content?.data instanceof ReadableStream);
  const repeatable =
    replayable && (IDEMPOTENT_METHODS.has(request.method) || request.headers?.["idempotency-key"] !== undefined);
  const maxRetries = replayable ? transport.maxRetries : 0;
  let retries = 0;
  let reauthenticated = !replayable;
  for (;;) {
    const token = await transport.tokens.getToken();
    const answer = await attempt(transport, url, request, token, streamed);
    if (answer instanceof ApiNetworkError) {
      if (!repeatable || retries >= maxRetries) throw answer;
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
    if (RETRY_STATUSES.has(response.status) && retries < maxRetries) {
      const wait = retryDelayMs(response, retries, transport.maxRetryDelayMs);
      retries += 1;
      await sleep(wait);
      continue;
    }
    return answer;
  }
}

/**
 * One HTTP exchange, its body read in full unless `streamed` and 2xx; an {@link ApiNetworkError} when it got no
 * whole answer (or, streamed, no head) within the timeout.
 */
async function attempt(
  transport: Transport,
  url: string,
  request: ApiRequest,
  token: string,
  streamed: boolean,
): Promise<Answer | ApiNetworkError> {
  const timeoutMs = request.timeoutMs ?? transport.timeoutMs;
  // Not AbortSignal.timeout: a streamed answer's body outlives the timeout, so the timer must be clearable.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await transport.fetch(url, {
      method: request.method,
      ...bodyOf(request),
      headers: {
        accept: "application/json, application/problem+json",
        authorization: `Bearer ${token}`,
        ...contentTypeOf(request),
        ...request.headers,
      },
      signal: controller.signal,
    });
    if (streamed && response.ok) return { response, text: "" };
    return { response, text: await response.text() };
  } catch (cause) {
    return controller.signal.aborted
      ? new ApiNetworkError(
          "api_timeout",
          `data API request ${request.method} ${request.path} timed out after ${timeoutMs} ms`,
          { cause },
        )
      : new ApiNetworkError("api_unreachable", `data API request ${request.method} ${request.path} failed`, { cause });
  } finally {
    clearTimeout(timer);
  }
}

function contentTypeOf(request: ApiRequest): Record<string, string> {
  if (request.content !== undefined) return { "content-type": request.content.type };
  return request.body === undefined ? {} : { "content-type": "application/json" };
}

function bodyOf(request: ApiRequest): RequestInit {
  if (request.content !== undefined) {
    const { data } = request.content;
    // Fetch sends a stream only as a half-duplex request (the answer may start before the body ends).
    if (data instanceof ReadableStream) return { body: data, duplex: "half" } as RequestInit;
    return { body: data as BodyInit };
  }
  return request.body === undefined ? {} : { body: JSON.stringify(request.body) };
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

function readAnswer(answer: Answer): unknown {
  if (!answer.response.ok) return throwApiError(answer);
  return parsed(answer.text);
}

function parsed(text: string): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function throwApiError({ response, text }: Answer): never {
  const body = parsed(text);
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
