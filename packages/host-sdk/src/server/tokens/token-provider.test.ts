import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { TokenRequestError } from "../errors/token-request-error.js";
import { answerJson, type LoopbackServer, startLoopbackServer } from "../test-loopback.js";
import { createMemoryTokenStore } from "./memory-token-store.js";
import { createTokenProvider } from "./token-provider.js";

const CREDENTIALS = {
  tokenUrl: "https://id.lotline.example/",
  clientId: "client-1",
  clientSecret: "secret-1",
  audience: "https://lotline.example/v1",
};
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A token endpoint double: issues tok-1, tok-2, … with `expiresIn` seconds, or answers what `next` says. */
function tokenEndpoint(expiresIn = 86_400) {
  let issued = 0;
  const endpoint = {
    /** Set to make the next answers fail with this status and OAuth error. */
    failWith: undefined as { status: number; error: string } | undefined,
    /** Set to hold answers until the promise settles. */
    gate: undefined as Promise<void> | undefined,
    bodies: [] as unknown[],
    fetch: vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      expect(String(url)).toBe("https://id.lotline.example/oauth/token");
      endpoint.bodies.push(JSON.parse(String(init?.body)));
      if (endpoint.gate) await endpoint.gate;
      if (endpoint.failWith) {
        const { status, error } = endpoint.failWith;
        return Response.json({ error, error_description: "said the server" }, { status });
      }
      issued += 1;
      return Response.json({ access_token: `tok-${issued}`, expires_in: expiresIn, token_type: "Bearer" });
    }),
  };
  return endpoint;
}

describe("createTokenProvider", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date", "performance", "setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("posts the client credentials grant as JSON", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch });
    expect(await tokens.getToken()).toBe("tok-1");
    expect(endpoint.bodies).toEqual([
      {
        client_id: "client-1",
        client_secret: "secret-1",
        audience: "https://lotline.example/v1",
        grant_type: "client_credentials",
      },
    ]);
    const init = endpoint.fetch.mock.calls[0]?.[1];
    expect(init?.method).toBe("POST");
    expect(new Headers(init?.headers).get("content-type")).toBe("application/json");
  });

  it("takes tokenUrl as the token endpoint's full URL too, as OAuth libraries take it", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenProvider({
      ...CREDENTIALS,
      tokenUrl: "https://id.lotline.example/oauth/token",
      fetch: endpoint.fetch,
    });
    expect(await tokens.getToken()).toBe("tok-1");
    expect(endpoint.fetch).toHaveBeenCalledTimes(1);
  });

  it("posts to a token endpoint under a reverse proxy's prefix as given", async () => {
    const fetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) =>
      Response.json({ access_token: "tok-1", expires_in: 86_400, token_type: "Bearer" }),
    );
    const tokens = createTokenProvider({ ...CREDENTIALS, tokenUrl: "https://gw.example/lotline/oauth/token/", fetch });
    await tokens.getToken();
    expect(fetch.mock.calls[0]?.[0]).toBe("https://gw.example/lotline/oauth/token");
  });

  it("refuses at creation a tokenUrl that is neither the token endpoint nor an origin", () => {
    const endpoint = tokenEndpoint();
    for (const tokenUrl of ["https://id.lotline.example/oauth", "ftp://id.lotline.example/oauth/token"]) {
      expect(() => createTokenProvider({ ...CREDENTIALS, tokenUrl, fetch: endpoint.fetch })).toThrow(
        ConfigurationError,
      );
    }
    expect(() => createTokenProvider({ ...CREDENTIALS, tokenUrl: "https://id.lotline.example/oauth" })).toThrow(
      /^tokenUrl must be the token endpoint, like https:\/\/lotline\.example\/oauth\/token, or an origin/,
    );
    expect(endpoint.fetch).not.toHaveBeenCalled();
  });

  it("reuses the token until five minutes before expiry, then fetches a new one", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch });
    expect(await tokens.getToken()).toBe("tok-1");
    vi.advanceTimersByTime(DAY - 5 * MINUTE - 1);
    expect(await tokens.getToken()).toBe("tok-1");
    expect(endpoint.fetch).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(await tokens.getToken()).toBe("tok-2");
    expect(endpoint.fetch).toHaveBeenCalledTimes(2);
  });

  it("refreshes a short-lived token when a tenth of its life is left", async () => {
    const endpoint = tokenEndpoint(600);
    const tokens = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch });
    await tokens.getToken();
    vi.advanceTimersByTime(540_000 - 1);
    expect(await tokens.getToken()).toBe("tok-1");
    vi.advanceTimersByTime(1);
    expect(await tokens.getToken()).toBe("tok-2");
  });

  it("honours a configured margin", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch, refreshMargin: 3600 });
    await tokens.getToken();
    vi.advanceTimersByTime(DAY - 60 * MINUTE);
    expect(await tokens.getToken()).toBe("tok-2");
  });

  it("sends one request however many callers ask at once", async () => {
    const endpoint = tokenEndpoint();
    let open = () => {};
    endpoint.gate = new Promise((resolve) => {
      open = resolve;
    });
    const tokens = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch });
    const callers = Array.from({ length: 50 }, () => tokens.getToken());
    open();
    expect(new Set(await Promise.all(callers))).toEqual(new Set(["tok-1"]));
    expect(endpoint.fetch).toHaveBeenCalledTimes(1);
  });

  it("rejects the callers of a failed request with the OAuth error, and tries again on the next call", async () => {
    const endpoint = tokenEndpoint();
    endpoint.failWith = { status: 401, error: "invalid_client" };
    const tokens = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch });
    const results = await Promise.allSettled([tokens.getToken(), tokens.getToken()]);
    expect(endpoint.fetch).toHaveBeenCalledTimes(1);
    for (const result of results) {
      expect(result.status).toBe("rejected");
      const error = (result as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(TokenRequestError);
      expect(error).toMatchObject({ code: "invalid_client", status: 401, errorDescription: "said the server" });
    }
    endpoint.failWith = undefined;
    expect(await tokens.getToken()).toBe("tok-1");
    expect(endpoint.fetch).toHaveBeenCalledTimes(2);
  });

  it("reports an unreachable endpoint, after trying once more, and an answer without a token", async () => {
    const down = vi.fn(async () => {
      throw new TypeError("fetch failed");
    });
    const unreachable = createTokenProvider({ ...CREDENTIALS, fetch: down });
    await expect(unreachable.getToken()).rejects.toMatchObject({ code: "token_endpoint_unreachable" });
    expect(down).toHaveBeenCalledTimes(2);
    const empty = createTokenProvider({ ...CREDENTIALS, fetch: async () => Response.json({ token_type: "Bearer" }) });
    await expect(empty.getToken()).rejects.toMatchObject({ code: "invalid_token_response", status: 200 });
  });

  it("keeps serving a still-valid token when its refresh fails, and refreshes once the endpoint recovers", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch });
    await tokens.getToken();
    vi.advanceTimersByTime(DAY - 2 * MINUTE);
    endpoint.failWith = { status: 503, error: "temporarily_unavailable" };
    expect(await tokens.getToken()).toBe("tok-1");
    expect(endpoint.fetch).toHaveBeenCalledTimes(2);
    // The failing endpoint is not asked again on every call, only after a pause.
    expect(await tokens.getToken()).toBe("tok-1");
    expect(endpoint.fetch).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10_000);
    endpoint.failWith = undefined;
    expect(await tokens.getToken()).toBe("tok-2");
    expect(endpoint.fetch).toHaveBeenCalledTimes(3);
  });

  it("retries sooner than the pause when expiry is nearer", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch });
    await tokens.getToken();
    vi.advanceTimersByTime(DAY - 4_000);
    endpoint.failWith = { status: 503, error: "temporarily_unavailable" };
    expect(await tokens.getToken()).toBe("tok-1");
    vi.advanceTimersByTime(2_000);
    endpoint.failWith = undefined;
    expect(await tokens.getToken()).toBe("tok-2");
  });

  it("rejects once the old token has really expired and the refresh fails", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch });
    await tokens.getToken();
    vi.advanceTimersByTime(DAY);
    endpoint.failWith = { status: 503, error: "temporarily_unavailable" };
    await expect(tokens.getToken()).rejects.toMatchObject({ code: "temporarily_unavailable", status: 503 });
  });

  it("ignores wall-clock jumps: the token lives as long as the monotonic clock says", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch });
    await tokens.getToken();
    vi.setSystemTime(Date.now() + 3 * DAY); // the wall clock leaps ahead, no time passes
    expect(await tokens.getToken()).toBe("tok-1");
    vi.setSystemTime(Date.now() - 10 * DAY); // and far back
    vi.advanceTimersByTime(DAY - 5 * MINUTE);
    expect(await tokens.getToken()).toBe("tok-2");
    expect(endpoint.fetch).toHaveBeenCalledTimes(2);
  });

  it("shares one token between two providers through a shared store", async () => {
    const endpoint = tokenEndpoint();
    const store = createMemoryTokenStore();
    const first = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch, store });
    const second = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch, store });
    expect(await first.getToken()).toBe("tok-1");
    vi.advanceTimersByTime(60 * MINUTE);
    expect(await second.getToken()).toBe("tok-1");
    expect(endpoint.fetch).toHaveBeenCalledTimes(1);
    // The second provider knows the token's real age: it refreshes at the same moment as the first.
    vi.advanceTimersByTime(DAY - 65 * MINUTE);
    expect(await second.getToken()).toBe("tok-2");
    expect(await first.getToken()).toBe("tok-2");
    expect(endpoint.fetch).toHaveBeenCalledTimes(2);
  });

  it("shares one stored token between a provider given the origin and one given the endpoint", async () => {
    const endpoint = tokenEndpoint();
    const store = createMemoryTokenStore();
    await createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch, store }).getToken();
    const full = createTokenProvider({
      ...CREDENTIALS,
      tokenUrl: "https://id.lotline.example/oauth/token",
      fetch: endpoint.fetch,
      store,
    });
    expect(await full.getToken()).toBe("tok-1");
    expect(endpoint.fetch).toHaveBeenCalledTimes(1);
  });

  it("shares a token through the memory store across a wall-clock jump", async () => {
    const endpoint = tokenEndpoint();
    const store = createMemoryTokenStore();
    await createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch, store }).getToken();
    vi.setSystemTime(Date.now() + 2 * DAY);
    const second = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch, store });
    expect(await second.getToken()).toBe("tok-1");
    expect(endpoint.fetch).toHaveBeenCalledTimes(1);
  });

  it("keeps providers of different clients or audiences apart in one store", async () => {
    const endpoint = tokenEndpoint();
    const store = createMemoryTokenStore();
    await createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch, store }).getToken();
    await createTokenProvider({ ...CREDENTIALS, clientId: "client-2", fetch: endpoint.fetch, store }).getToken();
    await createTokenProvider({ ...CREDENTIALS, audience: "other", fetch: endpoint.fetch, store }).getToken();
    expect(endpoint.fetch).toHaveBeenCalledTimes(3);
  });

  it("falls back on a near-expiry token from the store when its own first request fails", async () => {
    const endpoint = tokenEndpoint();
    const store = createMemoryTokenStore();
    await createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch, store }).getToken();
    vi.advanceTimersByTime(DAY - MINUTE);
    endpoint.failWith = { status: 503, error: "temporarily_unavailable" };
    const newcomer = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch, store });
    expect(await newcomer.getToken()).toBe("tok-1");
  });

  it("still works when the shared store fails", async () => {
    const endpoint = tokenEndpoint();
    const broken = {
      get: () => Promise.reject(new Error("redis down")),
      set: () => Promise.reject(new Error("redis down")),
      delete: () => Promise.reject(new Error("redis down")),
    };
    const tokens = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch, store: broken });
    expect(await tokens.getToken()).toBe("tok-1");
    expect(await tokens.getToken()).toBe("tok-1");
    await tokens.invalidate("tok-1");
    expect(await tokens.getToken()).toBe("tok-2");
  });

  it("invalidate drops the token here and in the store, but not a newer one", async () => {
    const endpoint = tokenEndpoint();
    const store = createMemoryTokenStore();
    const first = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch, store });
    const second = createTokenProvider({ ...CREDENTIALS, fetch: endpoint.fetch, store });
    expect(await first.getToken()).toBe("tok-1");
    expect(await second.getToken()).toBe("tok-1");
    await first.invalidate("tok-1");
    expect(await first.getToken()).toBe("tok-2");
    // The second provider's late report about tok-1 must not throw away tok-2.
    await second.invalidate("tok-1");
    await first.invalidate("tok-1");
    expect(await first.getToken()).toBe("tok-2");
    expect(await second.getToken()).toBe("tok-2");
    expect(endpoint.fetch).toHaveBeenCalledTimes(2);
  });
});

describe("createTokenProvider over loopback HTTP", () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("aborts a token request that gets no answer within timeoutMs, and does not repeat it", async () => {
    server = await startLoopbackServer(() => undefined);
    const tokens = createTokenProvider({ ...CREDENTIALS, tokenUrl: server.url, timeoutMs: 1000 });
    const error = await tokens.getToken().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect(error).toMatchObject({ code: "token_endpoint_timeout", status: undefined });
    await server.received(1);
    // Time enough for a repeat to arrive, were one sent.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.requests).toHaveLength(1);
  });

  it("tries once more at once when the connection is reset", async () => {
    server = await startLoopbackServer((_request, response, index) => {
      if (index === 0) response.socket?.destroy();
      else answerJson(response, { access_token: "tok-1", expires_in: 3600, token_type: "Bearer" });
    });
    const tokens = createTokenProvider({ ...CREDENTIALS, tokenUrl: server.url });
    expect(await tokens.getToken()).toBe("tok-1");
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      "POST /oauth/token",
      "POST /oauth/token",
    ]);
  });
});
