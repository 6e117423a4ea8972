import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "../errors/webhook-verification-error.js";
import { verifyWebhook } from "./verify-webhook.js";

const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const NOW = Date.UTC(2026, 10, 22, 12);
const BODY = JSON.stringify({
  type: "order.complete",
  timestamp: "2026-11-22T12:00:00.000Z",
  data: { order_id: "ord_1", property_id: 7, status: "complete", external_id: "POL-1" },
});

/** Headers as the reference Standard Webhooks library signs them. */
function signed(body: string | Buffer, { at = NOW, id = "msg_1", secret = SECRET } = {}) {
  const signature = new Webhook(secret).sign(id, new Date(at), body);
  return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at / 1000)), "webhook-signature": signature };
}

function refusal(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error("verification passed");
}

describe("verifyWebhook", () => {
  it("accepts a delivery signed by the reference library and returns the event typed by its type", () => {
    const event = verifyWebhook({ secret: SECRET, headers: signed(BODY), body: BODY, now: () => NOW });
    expect(event.type).toBe("order.complete");
    if (event.type === "order.complete") expect(event.data.property_id).toBe(7);
  });

  it("accepts the body as bytes and Fetch Headers", () => {
    const bytes = new TextEncoder().encode(BODY);
    const headers = new Headers(signed(BODY));
    expect(verifyWebhook({ secret: SECRET, headers, body: bytes, now: () => NOW }).type).toBe("order.complete");
  });

  it("reads header names case-insensitively from a plain object", () => {
    const headers = Object.fromEntries(
      Object.entries(signed(BODY)).map(([name, value]) => [name.replace("webhook", "Webhook"), value]),
    );
    expect(verifyWebhook({ secret: SECRET, headers, body: BODY, now: () => NOW }).type).toBe("order.complete");
  });

  it("accepts when any one of several signatures matches (a rotated secret)", () => {
    const old = `whsec_${randomBytes(32).toString("base64")}`;
    const headers = signed(BODY);
    headers["webhook-signature"] =
      `${signed(BODY, { secret: old })["webhook-signature"]} v2,abc ${headers["webhook-signature"]}`;
    expect(verifyWebhook({ secret: SECRET, headers, body: BODY, now: () => NOW }).type).toBe("order.complete");
  });

  it("refuses a tampered body, id or timestamp, and another secret", () => {
    const headers = signed(BODY);
    const tampered = BODY.replace('"property_id":7', '"property_id":8');
    const verify =
      (h: Record<string, string>, body = BODY, secret = SECRET) =>
      () =>
        verifyWebhook({ secret, headers: h, body, now: () => NOW });
    expect(refusal(verify(headers, tampered)).code).toBe("bad_signature");
    expect(refusal(verify({ ...headers, "webhook-id": "msg_2" })).code).toBe("bad_signature");
    expect(refusal(verify({ ...headers, "webhook-timestamp": String(NOW / 1000 + 1) })).code).toBe("bad_signature");
    const other = `whsec_${randomBytes(32).toString("base64")}`;
    expect(refusal(verify(headers, BODY, other)).code).toBe("bad_signature");
    expect(refusal(verify({ ...headers, "webhook-signature": "v1,short" })).code).toBe("bad_signature");
  });

  it("refuses a stale or future timestamp even when correctly signed", () => {
    const stale = signed(BODY, { at: NOW - 301_000 });
    expect(refusal(() => verifyWebhook({ secret: SECRET, headers: stale, body: BODY, now: () => NOW })).code).toBe(
      "stale_timestamp",
    );
    const future = signed(BODY, { at: NOW + 301_000 });
    expect(refusal(() => verifyWebhook({ secret: SECRET, headers: future, body: BODY, now: () => NOW })).code).toBe(
      "future_timestamp",
    );
    const edge = signed(BODY, { at: NOW - 300_000 });
    expect(verifyWebhook({ secret: SECRET, headers: edge, body: BODY, now: () => NOW }).type).toBe("order.complete");
    expect(
      verifyWebhook({ secret: SECRET, headers: stale, body: BODY, now: () => NOW, toleranceSeconds: 600 }).type,
    ).toBe("order.complete");
  });

  it("refuses missing headers, a malformed timestamp, a bad secret and a body that is not an event", () => {
    const headers = signed(BODY);
    const { "webhook-signature": _, ...unsigned } = headers;
    expect(refusal(() => verifyWebhook({ secret: SECRET, headers: unsigned, body: BODY })).code).toBe(
      "missing_headers",
    );
    expect(
      refusal(() => verifyWebhook({ secret: SECRET, headers: { ...headers, "webhook-timestamp": "12.5" }, body: BODY }))
        .code,
    ).toBe("invalid_timestamp");
    expect(refusal(() => verifyWebhook({ secret: "sk_123", headers, body: BODY })).code).toBe("invalid_secret");
    const notJson = "not json";
    expect(
      refusal(() => verifyWebhook({ secret: SECRET, headers: signed(notJson), body: notJson, now: () => NOW })).code,
    ).toBe("invalid_body");
  });

  it("refuses a body a JSON parser already parsed, saying the raw body is needed and how to get it with Express", () => {
    // What `request.body` holds after `express.json()`: typed `any` there, so nothing stops it at compile time.
    const parsed: unknown = JSON.parse(BODY);
    const error = refusal(() =>
      verifyWebhook({ secret: SECRET, headers: signed(BODY), body: parsed as string, now: () => NOW }),
    );
    expect(error.code).toBe("raw_body_required");
    expect(error.message).toContain("raw body exactly as received (a string, or a Buffer or Uint8Array)");
    expect(error.message).toContain("not an object");
    expect(error.message).toContain('express.raw({ type: "application/json" })');
  });

  it("refuses a missing body the same way, not with a TypeError", () => {
    for (const [body, got] of [
      [undefined, "not undefined"],
      [null, "not null"],
      [[1, 2], "not an array"],
      [42, "not a number"],
    ] as const) {
      const error = refusal(() =>
        verifyWebhook({ secret: SECRET, headers: signed(BODY), body: body as unknown as string, now: () => NOW }),
      );
      expect(error.code).toBe("raw_body_required");
      expect(error.message).toContain(got);
    }
  });

  it("is a LotlineError with a stable code", () => {
    const error = refusal(() => verifyWebhook({ secret: SECRET, headers: {}, body: BODY }));
    expect(error.name).toBe("WebhookVerificationError");
    expect(error.code).toBe("missing_headers");
  });
});
