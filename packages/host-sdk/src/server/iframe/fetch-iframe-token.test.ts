import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { IframeTokenError } from "../errors/iframe-token-error.js";
import { type LoopbackServer, startLoopbackServer } from "../test-loopback.js";
import { fetchIframeToken } from "./fetch-iframe-token.js";

/** An unsigned JWT with the given claims: the function reads the lifetime, it does not verify. */
function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256", typ: "lotline-iframe+jwt" })}.${part(claims)}.signature`;
}

describe("fetchIframeToken", () => {
  it("signs in with Basic org id and iframe key, no body, and returns the lifetime the server gave", async () => {
    // This machine's clock is a day off: the lifetime must not depend on it.
    const iat = Math.floor(Date.now() / 1000) - 86_400;
    const token = jwt({ iat, exp: iat + 3600 });
    const fetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) =>
      Response.json({ token, expires: new Date((iat + 3600) * 1000).toISOString() }),
    );
    const result = await fetchIframeToken({
      iframeAuthUrl: "https://auth.lotline.example/",
      orgId: "org_1",
      iframeApiKey: "key:with:colons",
      fetch,
    });
    expect(result).toEqual({ token, expires: new Date((iat + 3600) * 1000).toISOString(), expiresIn: 3600 });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe("https://auth.lotline.example/auth/signin/integration");
    expect(init?.method).toBe("POST");
    expect(init?.body).toBeUndefined();
    const authorization = new Headers(init?.headers).get("authorization") ?? "";
    expect(Buffer.from(authorization.replace(/^Basic /, ""), "base64").toString()).toBe("org_1:key:with:colons");
  });

  it("takes iframeAuthUrl as the sign-in endpoint's full URL, an origin, or a URL under a proxy's prefix", async () => {
    const iat = Math.floor(Date.now() / 1000);
    const token = jwt({ iat, exp: iat + 3600 });
    const expected: Array<[string, string]> = [
      ["https://auth.example/auth/signin/integration", "https://auth.example/auth/signin/integration"],
      ["https://auth.example", "https://auth.example/auth/signin/integration"],
      ["https://gw.example/lotline/auth/signin/integration/", "https://gw.example/lotline/auth/signin/integration"],
    ];
    for (const [iframeAuthUrl, url] of expected) {
      const fetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) =>
        Response.json({ token, expires: new Date((iat + 3600) * 1000).toISOString() }),
      );
      await fetchIframeToken({ iframeAuthUrl, orgId: "org_1", iframeApiKey: "k", fetch });
      expect(fetch.mock.calls[0]?.[0], iframeAuthUrl).toBe(url);
    }
  });

  it("rejects an iframeAuthUrl that is neither the sign-in endpoint nor an origin, before any request", async () => {
    const fetch = vi.fn(async () => Response.json({}));
    const error = await fetchIframeToken({
      iframeAuthUrl: "https://auth.example/auth/signin",
      orgId: "o",
      iframeApiKey: "k",
      fetch,
    })
      .then(() => undefined)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).message).toMatch(
      /^iframeAuthUrl must be the iframe sign-in endpoint, like https:\/\/lotline\.example\/auth\/signin\/integration, or an origin/,
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it("says so clearly when the credentials are refused", async () => {
    const fetch = async () =>
      Response.json({ type: "about:blank", status: 401, code: "invalid_credentials" }, { status: 401 });
    const error = await fetchIframeToken({ iframeAuthUrl: "https://a.example", orgId: "o", iframeApiKey: "k", fetch })
      .then(() => undefined)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IframeTokenError);
    expect(error).toMatchObject({ code: "invalid_credentials", status: 401 });
  });

  it("refuses an answer without a readable JWT, and reports other failures", async () => {
    const options = { iframeAuthUrl: "https://a.example", orgId: "o", iframeApiKey: "k" };
    const noClaims = async () => Response.json({ token: "not-a-jwt", expires: "2026-11-22T12:00:00.000Z" });
    await expect(fetchIframeToken({ ...options, fetch: noClaims })).rejects.toMatchObject({
      code: "invalid_signin_response",
    });
    const down = async () => new Response("", { status: 503 });
    await expect(fetchIframeToken({ ...options, fetch: down })).rejects.toMatchObject({
      code: "signin_failed",
      status: 503,
    });
    const unreachable = async () => {
      throw new TypeError("fetch failed");
    };
    await expect(fetchIframeToken({ ...options, fetch: unreachable })).rejects.toMatchObject({
      code: "signin_unreachable",
    });
  });
});

describe("fetchIframeToken over loopback HTTP", () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("aborts a sign-in that gets no answer within timeoutMs", async () => {
    server = await startLoopbackServer(() => undefined);
    // Long enough for the request to reach the server on a loaded machine (a first fetch also loads its client):
    // what is tested is that the sign-in is sent, then given up.
    const error = await fetchIframeToken({ iframeAuthUrl: server.url, orgId: "o", iframeApiKey: "k", timeoutMs: 1000 })
      .then(() => undefined)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IframeTokenError);
    expect(error).toMatchObject({ code: "signin_timeout", status: undefined });
    expect(server.requests.map((request) => request.url)).toEqual(["/auth/signin/integration"]);
  });
});
