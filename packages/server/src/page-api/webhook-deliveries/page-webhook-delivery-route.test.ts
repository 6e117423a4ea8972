import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import { recordWebhookEvent } from "../../webhooks/webhook-events.js";
import { iframeTokenFor, type PageCall, pageCaller } from "../test-page-api.js";

describe("GET /embed/api/webhook-deliveries/{webhook_id}", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let page: PageCall;
  let webhookId: string;

  beforeAll(async () => {
    test = await createTestApp();
    tenant = await createTenant(test.services);
    page = pageCaller(test, await iframeTokenFor(test, tenant.orgId));
    webhookId = await test.services.db.transaction().execute((trx) =>
      recordWebhookEvent(trx, {
        orgId: tenant.orgId,
        type: "footprint.submitted",
        url: "https://core.example.com/hooks/1",
        data: { property_id: 7 },
      }),
    );
    await test.services.db
      .insertInto("webhook_attempts")
      .values({
        event_id: webhookId,
        attempted_at: Date.UTC(2030, 0, 1),
        duration_ms: 12,
        status_code: 503,
        error: null,
        response_excerpt: "try later",
      })
      .execute();
  });
  afterAll(() => test.close());

  it("answers the organization's delivery with its payload and every attempt", async () => {
    const response = await page("GET", `/embed/api/webhook-deliveries/${webhookId}`);
    expect(response.statusCode).toBe(200);
    const delivery = response.json();
    expect(delivery).toMatchObject({
      webhook_id: webhookId,
      type: "footprint.submitted",
      url: "https://core.example.com/hooks/1",
      status: "pending",
      delivered_at: null,
      payload: { type: "footprint.submitted", data: { property_id: 7 } },
      attempts: [
        {
          attempted_at: "2030-01-01T00:00:00.000Z",
          duration_ms: 12,
          status_code: 503,
          error: null,
          response_excerpt: "try later",
        },
      ],
    });
    const listed = await test.app.inject({
      url: "/v1/webhook-deliveries",
      headers: { authorization: `Bearer ${await accessTokenFor(test, tenant)}` },
    });
    expect(listed.json().data).toEqual([delivery]);
  });

  it("answers 404 for another organization's delivery and for none", async () => {
    const theirs = await iframeTokenFor(test, (await createTenant(test.services, "Other Mutual")).orgId);
    const response = await page("GET", `/embed/api/webhook-deliveries/${webhookId}`, { token: theirs });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("webhook_delivery_not_found");
    expect((await page("GET", "/embed/api/webhook-deliveries/msg_nothing")).json().code).toBe(
      "webhook_delivery_not_found",
    );
  });

  it("needs an iframe session: a data API token is refused", async () => {
    const response = await page("GET", `/embed/api/webhook-deliveries/${webhookId}`, {
      token: await accessTokenFor(test, tenant),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("session_ended");
  });
});
