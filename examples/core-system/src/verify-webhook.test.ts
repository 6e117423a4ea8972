import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "./verify-webhook.js";

const secret = `whsec_${randomBytes(24).toString("base64")}`;
const now = 1_750_000_000;

/** A delivery signed by the reference Standard Webhooks library, at `at` epoch seconds. */
function signed(body: string, at = now, id = "msg_2mXq", key = secret) {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(at),
    "webhook-signature": new Webhook(key).sign(id, new Date(at * 1000), body),
  };
}

describe("verifyWebhook", () => {
  const body = JSON.stringify({ type: "footprint.submitted", timestamp: "2025-06-15T15:06:40Z", data: { n: 1 } });

  it("accepts what the reference library signs, and returns the id, timestamp and parsed body", () => {
    expect(verifyWebhook(secret, signed(body), body, now)).toEqual({
      id: "msg_2mXq",
      timestamp: now,
      payload: JSON.parse(body),
    });
  });

  it("matches the Standard Webhooks test vector", () => {
    const vector = {
      "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "webhook-timestamp": "1614265330",
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    };
    const verified = verifyWebhook(
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      vector,
      '{"test": 2432232314}',
      1614265330,
    );
    expect(verified.payload).toEqual({ test: 2432232314 });
  });

  it("accepts a delivery when any one of several signatures matches (secret rotation)", () => {
    const headers = signed(body);
    const other = signed(body, now, "msg_2mXq", `whsec_${randomBytes(24).toString("base64")}`)["webhook-signature"];
    expect(() =>
      verifyWebhook(secret, { ...headers, "webhook-signature": `${other} ${headers["webhook-signature"]}` }, body, now),
    ).not.toThrow();
  });

  it.each([
    ["a changed body", (h: Record<string, string>) => [h, `${body} `]],
    ["another id", (h: Record<string, string>) => [{ ...h, "webhook-id": "msg_other" }, body]],
    ["another timestamp", (h: Record<string, string>) => [{ ...h, "webhook-timestamp": String(now + 1) }, body]],
    ["no signature", (h: Record<string, string>) => [{ ...h, "webhook-signature": "" }, body]],
    [
      "a v2 signature",
      (h: Record<string, string>) => [
        { ...h, "webhook-signature": h["webhook-signature"]?.replace("v1,", "v2,") },
        body,
      ],
    ],
    [
      "a truncated signature",
      (h: Record<string, string>) => [{ ...h, "webhook-signature": h["webhook-signature"]?.slice(0, -4) }, body],
    ],
    ["a missing id", (h: Record<string, string>) => [{ ...h, "webhook-id": undefined }, body]],
  ] as const)("refuses %s", (_name, change) => {
    const [headers, changedBody] = change(signed(body)) as [Record<string, string>, string];
    expect(() => verifyWebhook(secret, headers, changedBody, now)).toThrow(WebhookVerificationError);
  });

  it("refuses a delivery signed with another secret", () => {
    const headers = signed(body, now, "msg_2mXq", `whsec_${randomBytes(24).toString("base64")}`);
    expect(() => verifyWebhook(secret, headers, body, now)).toThrow("no webhook-signature matches");
  });

  it("accepts a timestamp up to five minutes away either way, and refuses one further (a replay)", () => {
    for (const offset of [-300, 300]) {
      expect(() => verifyWebhook(secret, signed(body, now + offset), body, now)).not.toThrow();
    }
    for (const offset of [-301, 301]) {
      expect(() => verifyWebhook(secret, signed(body, now + offset), body, now)).toThrow("too far from now");
    }
  });

  it("refuses a body that is not JSON even when signed, and a secret that is not whsec_", () => {
    expect(() => verifyWebhook(secret, signed("not json"), "not json", now)).toThrow("not JSON");
    expect(() => verifyWebhook("secret", signed(body), body, now)).toThrow("whsec_");
  });
});
