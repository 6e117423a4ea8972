import { ApiError } from "./api-error";

/** The page API's root: every call goes to the page's own origin (CSP `connect-src 'self'`). */
export const API_BASE = "/embed/api";

export interface RequestOptions {
  method?: "GET" | "POST";
  /** Sent as JSON. */
  body?: unknown;
  /** Query parameters; undefined ones are left out. */
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Calls the page API with the page's iframe JWT; see {@link createApiClient}. */
export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
}

export interface ApiClientOptions {
  /** The iframe JWT to send; read on every call, so a refreshed token is used at once. */
  token: () => string;
  /** Called on a 401: the session has ended (the call still rejects, so the caller stops). */
  onSessionEnded: () => void;
}

/**
 * A client for `/embed/api`: `Authorization: Bearer <iframe JWT>`, JSON both ways, no cookies
 * (`credentials: "omit"`), and every failure turned into an {@link ApiError} with the problem's code and a
 * readable message.
 *
 * @example
 * const api = createApiClient({ token: () => store.get().token, onSessionEnded: () => endSession() });
 * const lot = await api.request<Lot>("/lots", { query: { lat, lon } });
 */
export function createApiClient({ token, onSessionEnded }: ApiClientOptions): ApiClient {
  return {
    async request<T>(path: string, options: RequestOptions = {}): Promise<T> {
      const response = await send(urlOf(path, options.query), {
        method: options.method ?? "GET",
        headers: {
          accept: "application/json, application/problem+json",
          authorization: `Bearer ${token()}`,
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
          ...options.headers,
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        credentials: "omit",
        cache: "no-store",
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      if (response.status === 401) onSessionEnded();
      if (!response.ok) throw await problemOf(response);
      return (await response.json()) as T;
    },
  };
}

function urlOf(path: string, query: RequestOptions["query"] = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) search.set(name, String(value));
  }
  const text = search.toString();
  return `${API_BASE}${path}${text === "" ? "" : `?${text}`}`;
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    // An abort is the caller's own doing: let it through untouched so the caller can tell it apart.
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, "network_error", "The service could not be reached. Check the connection and try again.");
  }
}

/** The problem+json body as an ApiError; a body of another kind gets a message naming the status. */
async function problemOf(response: Response): Promise<ApiError> {
  const body = await response.json().catch(() => undefined);
  const problem = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const code = typeof problem.code === "string" ? problem.code : `http_${response.status}`;
  const detail = typeof problem.detail === "string" ? problem.detail : undefined;
  const title = typeof problem.title === "string" ? problem.title : undefined;
  return new ApiError(response.status, code, readable(detail ?? title ?? `The service answered ${response.status}.`));
}

/** A message as a sentence: capitalized, with a full stop (problem details are written lower-case, without one). */
function readable(text: string): string {
  const trimmed = text.trim();
  const capitalized = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}
