import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, serverLogger } from "../app.js";
import { issueIframeToken } from "../auth/tokens/iframe-token.js";
import { basic, createTenant, createTestApp, type TestApp, type TestTenant } from "../test/test-app.js";
import { credentialParametersIn, redactCredentials } from "./url-credentials.js";

describe("redactCredentials", () => {
  it.each([
    ["/p?jwt=abc&x=1", "/p?jwt=[redacted]&x=1"],
    ["/p?%6Awt=abc", "/p?%6Awt=[redacted]"],
    ["/p?%6A%77%74=abc", "/p?%6A%77%74=[redacted]"],
    ["/p?%256Awt=abc", "/p?%256Awt=[redacted]"],
    ["/p?JWT=abc", "/p?JWT=[redacted]"],
    ["/p?x=1&client_secret=s&client_id=c", "/p?x=1&client_secret=[redacted]&client_id=c"],
    ["/p?access_token=t&access_token=u", "/p?access_token=[redacted]&access_token=[redacted]"],
    ["/p?%E0wt=abc", "/p?%E0wt=[redacted]"],
    ["/p?address=jwt%3Dabc", "/p?address=jwt%3Dabc"],
    ["/p", "/p"],
    ["/p?jwt", "/p?jwt"],
  ])("%s → %s", (url, redacted) => {
    expect(redactCredentials(url)).toBe(redacted);
  });

  it("finds credential parameters by their decoded names", () => {
    expect(credentialParametersIn("/oauth/token?client_secret=x&%61pi_key=y&client_id=z")).toEqual([
      "client_secret",
      "api_key",
    ]);
    expect(credentialParametersIn("/oauth/token?client_id=z&audience=a")).toEqual([]);
  });
});

/** The service as `lotline serve` runs it (its logger at info), over real HTTP, with every log line kept. */
describe("credentials in a URL", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let app: FastifyInstance;
  let url: string;
  const lines: string[] = [];
  beforeAll(async () => {
    test = await createTestApp();
    tenant = await createTenant(test.services);
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp(test.services, { logger: { ...(serverLogger("info") as object), stream } });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await app.close();
    await test.close();
  });

  const log = () => lines.join("");

  it.each([
    ["client_secret", (t: TestTenant) => `client_secret=${t.clientSecret}`],
    ["client_id and client_secret", (t: TestTenant) => `client_id=${t.clientId}&client_secret=${t.clientSecret}`],
    ["an encoded client_secret", (t: TestTenant) => `client_id=${t.clientId}&client%5Fsecret=${t.clientSecret}`],
    ["an access_token", (t: TestTenant) => `access_token=${t.clientSecret}`],
  ])("are refused on /oauth/token with invalid_request, and never logged: %s", async (_what, query) => {
    const response = await fetch(`${url}/oauth/token?${query(tenant)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: tenant.clientId,
        client_secret: tenant.clientSecret,
        audience: test.config.apiAudience,
      }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe("invalid_request");
    expect(body.error_description).toContain("URL");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(log()).toContain("/oauth/token?");
    expect(log()).not.toContain(tenant.clientSecret);
  });

  it("are refused on /auth/signin/integration with invalid_request, and never logged", async () => {
    for (const query of [`api_key=${tenant.iframeKey}`, `iframe_api_key=${tenant.iframeKey}`]) {
      const response = await fetch(`${url}/auth/signin/integration?${query}`, {
        method: "POST",
        headers: { authorization: basic(tenant.orgId, tenant.iframeKey) },
      });
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ status: 400, code: "invalid_request" });
    }
    expect(log()).toContain("/auth/signin/integration?");
    expect(log()).not.toContain(tenant.iframeKey);
  });

  it("leave the credential endpoints working without them", async () => {
    const response = await fetch(`${url}/auth/signin/integration`, {
      method: "POST",
      headers: { authorization: basic(tenant.orgId, tenant.iframeKey) },
    });
    expect(response.status).toBe(200);
  });

  it("never reach the log as a page's jwt, however the parameter's name is percent-encoded", async () => {
    const { token } = await issueIframeToken(test.services.keys, test.config, tenant.orgId);
    for (const name of ["jwt", "%6Awt", "%6a%77%74", "JWT"]) {
      const response = await fetch(`${url}/property-profile/new-order?address=x&${name}=${token}`, {
        redirect: "manual",
      });
      expect([200, 302, 503]).toContain(response.status);
    }
    // The spelling the service reads as `jwt` opens the page: the redaction covers what is really used.
    expect(log()).toContain("%6Awt=[redacted]");
    expect(log()).not.toContain(token);
    expect(log()).not.toContain(token.split(".")[2]);
  });
});
