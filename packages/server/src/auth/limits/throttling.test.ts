import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Settings } from "../../config/config.js";
import { basic, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";

/**
 * Failed authentications through real HTTP, with the service behind a proxy it trusts (LOTLINE_TRUST_PROXY), so
 * `X-Forwarded-For` says which address each request comes from. The clock stands still unless a test moves it, so
 * every refusal is exactly as long as the back-off says.
 */
const ATTACKER = "203.0.113.7";
const VICTIM = "198.51.100.20";

function signIn(test: TestApp, orgId: string, key: string, from: string): Promise<Response> {
  return fetch(`${test.url}/auth/signin/integration`, {
    method: "POST",
    headers: { authorization: basic(orgId, key), "x-forwarded-for": from },
  });
}

function requestToken(test: TestApp, clientId: string, clientSecret: string, from: string): Promise<Response> {
  return fetch(`${test.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": from },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
      audience: test.config.apiAudience,
    }),
  });
}

/** The Retry-After of a 429, in seconds. */
async function refusedFor(response: Response): Promise<number> {
  expect(response.status, await response.clone().text()).toBe(429);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const header = response.headers.get("retry-after") ?? "";
  expect(header).toMatch(/^\d+$/);
  return Number(header);
}

beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2031-03-14T12:30:00.000Z"));
});
afterAll(() => vi.useRealTimers());

/** Moves the clock on. */
function wait(seconds: number): void {
  vi.setSystemTime(Date.now() + seconds * 1000);
}

function useTestApp(settings: Settings = {}) {
  const state = {} as { test: TestApp; tenant: TestTenant };
  beforeAll(async () => {
    state.test = await createTestApp({ LOTLINE_TRUST_PROXY: "127.0.0.1", ...settings }, { listen: true });
    state.tenant = await createTenant(state.test.services);
  });
  afterAll(() => state.test.close());
  return state;
}

describe("failed iframe sign-ins naming another organization", () => {
  const state = useTestApp();

  it("slow down the address that made them, never the organization's real key from its own address", async () => {
    const { test, tenant } = state;
    for (let i = 0; i < 20; i++) {
      expect((await signIn(test, tenant.orgId, `guess-${i}`, ATTACKER)).status).toBe(401);
    }
    // The attacker's next try is refused before the key is compared, the right key included: it learns nothing.
    expect(await refusedFor(await signIn(test, tenant.orgId, "guess-20", ATTACKER))).toBe(1);
    expect(await refusedFor(await signIn(test, tenant.orgId, tenant.iframeKey, ATTACKER))).toBe(1);

    const victim = await signIn(test, tenant.orgId, tenant.iframeKey, VICTIM);
    expect(victim.status).toBe(200);
    expect(await victim.json()).toMatchObject({ token: expect.any(String) });
  });
});

describe("failed token requests naming another client", () => {
  const state = useTestApp();

  it("slow down the address that made them, never the client's real secret from its own address", async () => {
    const { test, tenant } = state;
    for (let i = 0; i < 20; i++) {
      const response = await requestToken(test, tenant.clientId, `guess-${i}`, ATTACKER);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: string }).error).toBe("invalid_client");
    }
    const refused = await requestToken(test, tenant.clientId, tenant.clientSecret, ATTACKER);
    expect(await refusedFor(refused)).toBe(1);
    expect(((await refused.json()) as { error: string }).error).toBe("slow_down");

    const victim = await requestToken(test, tenant.clientId, tenant.clientSecret, VICTIM);
    expect(victim.status).toBe(200);
    expect(await victim.json()).toMatchObject({ access_token: expect.any(String) });
  });
});

describe("an address failing with many client ids", () => {
  const state = useTestApp();

  it("is slowed down whatever it names, while every other address is served", async () => {
    const { test, tenant } = state;
    for (let i = 0; i < 100; i++) {
      expect((await requestToken(test, `cl_random${i}`, "guess", ATTACKER)).status).toBe(401);
    }
    expect(await refusedFor(await requestToken(test, tenant.clientId, tenant.clientSecret, ATTACKER))).toBe(1);
    expect(await refusedFor(await signIn(test, tenant.orgId, tenant.iframeKey, ATTACKER))).toBe(1);

    expect((await requestToken(test, tenant.clientId, tenant.clientSecret, VICTIM)).status).toBe(200);
    expect((await signIn(test, tenant.orgId, tenant.iframeKey, VICTIM)).status).toBe(200);
  });
});

describe("the back-off", () => {
  const state = useTestApp({ LOTLINE_AUTH_FAILURE_LIMIT_CLIENT: "3", LOTLINE_AUTH_FAILURE_BACKOFF_MAX: "8" });

  it("doubles from one second with each further failure, up to LOTLINE_AUTH_FAILURE_BACKOFF_MAX", async () => {
    const { test, tenant } = state;
    for (let i = 0; i < 3; i++) expect((await signIn(test, tenant.orgId, "guess", ATTACKER)).status).toBe(401);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const seconds = await refusedFor(await signIn(test, tenant.orgId, "guess", ATTACKER));
      waits.push(seconds);
      wait(seconds);
      expect((await signIn(test, tenant.orgId, "guess", ATTACKER)).status).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8, 8, 8]);
  });

  it("starts again after a success from that address", async () => {
    const { test, tenant } = state;
    for (let i = 0; i < 3; i++) expect((await signIn(test, tenant.orgId, "typo", VICTIM)).status).toBe(401);
    wait(await refusedFor(await signIn(test, tenant.orgId, tenant.iframeKey, VICTIM)));
    expect((await signIn(test, tenant.orgId, tenant.iframeKey, VICTIM)).status).toBe(200);
    // Three free failures again, not a longer wait.
    for (let i = 0; i < 3; i++) expect((await signIn(test, tenant.orgId, "typo", VICTIM)).status).toBe(401);
    expect(await refusedFor(await signIn(test, tenant.orgId, "typo", VICTIM))).toBe(1);
  });
});
