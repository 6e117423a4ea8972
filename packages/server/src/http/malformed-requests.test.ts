import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueIframeToken } from "../auth/tokens/iframe-token.js";
import { accessTokenFor, basic, createTenant, createTestApp, type TestApp, type TestTenant } from "../test/test-app.js";

/** What a client got back, read whole. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request over real HTTP: what a client library sends, not what `inject` simulates. */
async function send(url: string, init: RequestInit): Promise<Answer> {
  const response = await fetch(url, init);
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: await response.text(),
  };
}

/** Nothing in the answer, headers included, names the framework's own error codes. */
function expectNoFrameworkCode(answer: Answer): void {
  expect(JSON.stringify(answer).toLowerCase()).not.toMatch(/fst_|"statuscode"/);
}

function expectProblem(answer: Answer, status: number, code: string): void {
  expectNoFrameworkCode(answer);
  expect(answer.status).toBe(status);
  expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(JSON.parse(answer.body)).toMatchObject({ status, code });
}

function expectOAuthError(answer: Answer, status: number): void {
  expectNoFrameworkCode(answer);
  expect(answer.status).toBe(status);
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body);
  expect(body.error).toBe("invalid_request");
  expect(typeof body.error_description).toBe("string");
}

/** A JSON body past the service's 1 MiB limit. */
const TOO_LARGE = JSON.stringify({ address: "x".repeat(1_100_000) });

/** The kinds of unreadable request, each as headers and body. */
const MALFORMED = {
  "an empty JSON body": { headers: { "content-type": "application/json" }, body: "" },
  "invalid JSON": { headers: { "content-type": "application/json" }, body: '{"address": ' },
  "an unsupported media type": { headers: { "content-type": "application/xml" }, body: "<order/>" },
  "an unreadable Content-Type": { headers: { "content-type": "not a media type" }, body: "{}" },
  "a body too large": { headers: { "content-type": "application/json" }, body: TOO_LARGE },
} as const;
type Malformed = keyof typeof MALFORMED;

/** What `/v1` and `/embed/api` answer to each: a problem with a code of ours. */
const PROBLEMS: [Malformed, number, string][] = [
  ["an empty JSON body", 400, "empty_json_body"],
  ["invalid JSON", 400, "invalid_json"],
  ["an unsupported media type", 415, "unsupported_media_type"],
  ["an unreadable Content-Type", 415, "unsupported_media_type"],
  ["a body too large", 413, "body_too_large"],
];

describe("requests the framework cannot read, over real HTTP", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let bearer: string;
  let iframeToken: string;

  beforeAll(async () => {
    // Wrong sign-ins below must not run into the failure throttle.
    test = await createTestApp({ LOTLINE_AUTH_FAILURE_LIMIT_CLIENT: "1000" }, { listen: true });
    tenant = await createTenant(test.services);
    bearer = await accessTokenFor(test, tenant);
    iframeToken = (await issueIframeToken(test.services.keys, test.config, tenant.orgId)).token;
  });
  afterAll(() => test.close());

  const post = (path: string, authorization: string, kind: Malformed) =>
    send(`${test.url}${path}`, {
      method: "POST",
      headers: { authorization, ...MALFORMED[kind].headers },
      body: MALFORMED[kind].body,
    });

  it.each(PROBLEMS)("answers %s to /v1 with %i %s", async (kind, status, code) => {
    expectProblem(await post("/v1/orders", `Bearer ${bearer}`, kind), status, code);
  });

  it.each(PROBLEMS)("answers %s to /embed/api with %i %s", async (kind, status, code) => {
    expectProblem(await post("/embed/api/orders", `Bearer ${iframeToken}`, kind), status, code);
  });

  it.each([
    ["an empty JSON body", 400],
    ["invalid JSON", 400],
    ["an unsupported media type", 400],
    ["an unreadable Content-Type", 400],
    ["a body too large", 413],
  ] as [Malformed, number][])("answers %s to /oauth/token with an OAuth invalid_request (%i)", async (kind, status) => {
    const answer = await post("/oauth/token", basic(tenant.clientId, tenant.clientSecret), kind);
    expectOAuthError(answer, status);
    expect(answer.headers["cache-control"]).toBe("no-store");
  });

  it.each(["/v1/orders/%E0%A4%A", "/embed/api/orders/%E0%A4%A"])(
    "answers an undecodable address (%s) with 400 invalid_url",
    async (path) => {
      const authorization = path.startsWith("/v1") ? `Bearer ${bearer}` : `Bearer ${iframeToken}`;
      expectProblem(await send(`${test.url}${path}`, { headers: { authorization } }), 400, "invalid_url");
    },
  );

  it("answers a request that is not HTTP at all with a 400 problem", async () => {
    const { port, hostname } = new URL(test.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      let received = "";
      socket.on("data", (chunk) => (received += chunk));
      socket.on("close", () => resolve(received));
      socket.on("error", reject);
      socket.write("NOT HTTP AT ALL\r\n\r\n");
    });
    const [head = "", body = ""] = raw.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toContain("content-type: application/problem+json");
    expect(JSON.parse(body)).toMatchObject({ status: 400, code: "malformed_request" });
    expect(raw.toLowerCase()).not.toContain("fst_");
  });

  describe("POST /auth/signin/integration, whose body is none", () => {
    const signIn = (authorization: string, headers: Record<string, string>, body?: string) =>
      send(`${test.url}/auth/signin/integration`, {
        method: "POST",
        headers: { authorization, ...headers },
        ...(body === undefined ? {} : { body }),
      });

    const BODIES: [string, Record<string, string>, string | undefined][] = [
      ["no Content-Type and no body", {}, undefined],
      ["Content-Type: application/json and an empty body", { "content-type": "application/json" }, ""],
      ["Content-Type: application/json and {}", { "content-type": "application/json" }, "{}"],
      ["Content-Type: application/json and invalid JSON", { "content-type": "application/json" }, "{"],
      ["an empty form", { "content-type": "application/x-www-form-urlencoded" }, ""],
      ["text", { "content-type": "text/plain" }, "hello"],
      ["an unexpected media type", { "content-type": "application/octet-stream" }, "\u0000\u0001"],
    ];

    it.each(BODIES)("signs in with %s", async (_name, headers, body) => {
      const answer = await signIn(basic(tenant.orgId, tenant.iframeKey), headers, body);
      expectNoFrameworkCode(answer);
      expect(answer.status).toBe(200);
      expect(Object.keys(JSON.parse(answer.body)).sort()).toEqual(["expires", "token"]);
    });

    it.each(BODIES)(
      "refuses wrong credentials with %s: 401 and a Basic challenge, never 400",
      async (_n, headers, body) => {
        const answer = await signIn(basic(tenant.orgId, "wrong-key"), headers, body);
        expectProblem(answer, 401, "invalid_credentials");
        expect(answer.headers["www-authenticate"]).toMatch(/^Basic\b/);
      },
    );

    it("refuses a body far larger than a sign-in could need, in our words", async () => {
      const answer = await signIn(
        basic(tenant.orgId, tenant.iframeKey),
        { "content-type": "application/json" },
        TOO_LARGE,
      );
      expectProblem(answer, 413, "body_too_large");
    });
  });
});
