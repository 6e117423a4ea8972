import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Settings } from "../../config/config.js";
import { createApiClient } from "../../tenancy/api-clients.js";
import { createTenant, createTestApp, type TestApp, type TestTenant, tokenRequestBody } from "../../test/test-app.js";

/**
 * The clock stands still at half past an hour (UTC), so hour and day windows cannot roll over mid-test and the
 * Retry-After values are exact: 30 minutes to the end of the hour, 11.5 hours to the end of the day.
 */
const HALF_PAST = new Date("2031-03-14T12:30:00.000Z");

function requestToken(test: TestApp, tenant: Pick<TestTenant, "clientId" | "clientSecret">) {
  return test.app.inject({
    method: "POST",
    url: "/oauth/token",
    payload: tokenRequestBody(test, tenant as TestTenant),
  });
}

function expectSlowDown(response: LightMyRequestResponse, maxSeconds: number): number {
  expect(response.statusCode, response.body).toBe(429);
  expect(response.json().error).toBe("slow_down");
  expect(response.json().error_description).toEqual(expect.any(String));
  expect(response.headers["cache-control"]).toBe("no-store");
  const header = String(response.headers["retry-after"]);
  expect(header).toMatch(/^\d+$/);
  const seconds = Number(header);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(maxSeconds);
  return seconds;
}

/** A test app over a frozen clock; each describe gets its own, so counts never leak between them. */
function useTestApp(settings: Settings) {
  const state = {} as { test: TestApp };
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(HALF_PAST);
    state.test = await createTestApp(settings);
  });
  afterAll(async () => {
    await state.test.close();
    vi.useRealTimers();
  });
  return state;
}

describe("frequent callers: hourly issuance limits", () => {
  const state = useTestApp({ LOTLINE_TOKEN_SOFT_LIMIT_HOUR: "2", LOTLINE_TOKEN_HARD_LIMIT_HOUR: "4" });
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTenant(state.test.services);
  });

  it("warns past the soft limit, refuses past the hard one, and leaves the org's other client alone", async () => {
    const { test } = state;
    for (let i = 1; i <= 2; i++) {
      const response = await requestToken(test, tenant);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["lotline-warning"], `token ${i}`).toBeUndefined();
    }
    for (let i = 3; i <= 4; i++) {
      const response = await requestToken(test, tenant);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["lotline-warning"]).toContain(`${i} tokens this hour`);
      expect(response.json().access_token).toEqual(expect.any(String));
    }

    const refused = await requestToken(test, tenant);
    expect(expectSlowDown(refused, 3600)).toBe(1800);
    expect(refused.json().error_description).toContain("4 tokens this hour");

    // Another client of the same organization counts on its own.
    const sibling = await createApiClient(test.services.db, test.services.digester, tenant.orgId);
    const response = await requestToken(test, { clientId: sibling.client_id, clientSecret: sibling.client_secret });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["lotline-warning"]).toBeUndefined();
  });

  it("keeps refusing for the rest of the hour and issues again once the next hour starts", async () => {
    const { test } = state;
    const tenant = await createTenant(test.services, "Eager Mutual");
    vi.setSystemTime(HALF_PAST);
    for (let i = 1; i <= 4; i++) expect((await requestToken(test, tenant)).statusCode).toBe(200);
    expectSlowDown(await requestToken(test, tenant), 3600);

    vi.setSystemTime(new Date("2031-03-14T12:59:59.500Z"));
    expect(expectSlowDown(await requestToken(test, tenant), 3600)).toBe(1);

    vi.setSystemTime(new Date("2031-03-14T13:00:00.000Z"));
    const response = await requestToken(test, tenant);
    expect(response.statusCode, response.body).toBe(200);
    // The day's count (7 now, including refused requests) is far under the default limits: no warning.
    expect(response.headers["lotline-warning"]).toBeUndefined();
  });
});

describe("frequent callers: daily issuance limits", () => {
  const state = useTestApp({ LOTLINE_TOKEN_SOFT_LIMIT_DAY: "2", LOTLINE_TOKEN_HARD_LIMIT_DAY: "4" });

  it("counts a whole UTC day across hours: warns past the soft limit, refuses past the hard one", async () => {
    const { test } = state;
    const tenant = await createTenant(test.services);
    const hours = ["01:05", "03:10", "07:45", "11:00"];
    for (const [index, hour] of hours.entries()) {
      vi.setSystemTime(new Date(`2031-03-14T${hour}:00.000Z`));
      const response = await requestToken(test, tenant);
      expect(response.statusCode, response.body).toBe(200);
      if (index < 2) expect(response.headers["lotline-warning"], hour).toBeUndefined();
      else expect(response.headers["lotline-warning"], hour).toContain(`${index + 1} today`);
    }

    vi.setSystemTime(HALF_PAST);
    const refused = await requestToken(test, tenant);
    expect(expectSlowDown(refused, 86400)).toBe(11.5 * 3600);
    expect(refused.json().error_description).toContain("4 tokens today");

    const sibling = await createApiClient(test.services.db, test.services.digester, tenant.orgId);
    const response = await requestToken(test, { clientId: sibling.client_id, clientSecret: sibling.client_secret });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["lotline-warning"]).toBeUndefined();

    // The next UTC day starts a new count.
    vi.setSystemTime(new Date("2031-03-15T00:00:01.000Z"));
    const nextDay = await requestToken(test, tenant);
    expect(nextDay.statusCode, nextDay.body).toBe(200);
    expect(nextDay.headers["lotline-warning"]).toBeUndefined();
  });
});

describe("frequent callers: both hard limits at once", () => {
  const state = useTestApp({ LOTLINE_TOKEN_HARD_LIMIT_HOUR: "2", LOTLINE_TOKEN_HARD_LIMIT_DAY: "3" });

  it("asks a client over the hour's and the day's hard limits to come back tomorrow, not next hour", async () => {
    const { test } = state;
    const tenant = await createTenant(test.services);
    vi.setSystemTime(new Date("2031-03-14T11:10:00.000Z"));
    expect((await requestToken(test, tenant)).statusCode).toBe(200);
    vi.setSystemTime(HALF_PAST);
    expect((await requestToken(test, tenant)).statusCode).toBe(200);
    expect((await requestToken(test, tenant)).statusCode).toBe(200);

    // 3 this hour, 4 today: both hard limits are passed, and only the day's end lifts the refusal.
    const refused = await requestToken(test, tenant);
    expect(expectSlowDown(refused, 86400)).toBe(11.5 * 3600);
    expect(refused.json().error_description).toContain("3 tokens today");

    vi.setSystemTime(new Date("2031-03-14T13:00:00.000Z"));
    expectSlowDown(await requestToken(test, tenant), 86400);
  });
});
