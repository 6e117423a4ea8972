import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../errors.js";
import { newEventId, signWebhook, webhookBody, webhookHeaders } from "./index.js";

const secret = `whsec_${randomBytes(32).toString("base64")}`;
const seconds = () => Math.floor(Date.now() / 1000);

describe("signWebhook", () => {
  it("matches the Standard Webhooks test vector", () => {
    const signature = signWebhook(
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      "msg_p5jXN8AQM9LWM0D4loKWxJek",
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("agrees with the standardwebhooks library's own signature", () => {
    const body = webhookBody("order.complete", { order_id: "ord_1", note: "naïve ✓" }, Date.now());
    // One reading of the clock: a second turning between two readings would sign two different timestamps.
    const now = seconds();
    expect(signWebhook(secret, "msg_1", now, body)).toBe(new Webhook(secret).sign("msg_1", new Date(now * 1000), body));
  });

  it("refuses a secret that is not whsec_ base64", () => {
    for (const bad of ["", "whsec_", "abc", "whsec_not base64!"]) {
      expect(() => signWebhook(bad, "msg_1", seconds(), "{}")).toThrow(InvalidInputError);
    }
    expect(() => signWebhook(secret, "msg_1", 1.5, "{}")).toThrow(RangeError);
  });
});

describe("webhookHeaders", () => {
  it("verifies with standardwebhooks and carries the content type and user agent", () => {
    const id = newEventId();
    const body = webhookBody("footprint.submitted", { footprint_id: "fp_1" }, Date.now());
    const headers = webhookHeaders(secret, id, seconds(), body);
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["user-agent"]).toBe("Lotline-Webhooks/1");
    expect(headers["webhook-id"]).toBe(id);
    expect(headers["webhook-timestamp"]).toMatch(/^\d+$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("fails verification when the body, id, timestamp or secret is tampered with", () => {
    const body = webhookBody("order.failed", { order_id: "ord_2" }, Date.now());
    // The timestamp tampered with is the signed one less a second, whenever the clock's second turns.
    const signedAt = seconds();
    const headers = webhookHeaders(secret, "msg_2", signedAt, body);
    const hook = new Webhook(secret);
    expect(() => hook.verify(body.replace("ord_2", "ord_3"), headers)).toThrow();
    expect(() => hook.verify(body, { ...headers, "webhook-id": "msg_3" })).toThrow();
    expect(() => hook.verify(body, { ...headers, "webhook-timestamp": String(signedAt - 1) })).toThrow();
    expect(() => new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(body, headers)).toThrow();
  });
});

describe("newEventId and webhookBody", () => {
  it("makes distinct msg_ ids", () => {
    const ids = new Set(Array.from({ length: 100 }, newEventId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^msg_[0-9a-z]{16}$/);
  });

  it("builds {type, timestamp, data} with an ISO timestamp", () => {
    const body = webhookBody("order.complete", { order_id: "ord_1" }, Date.UTC(2025, 0, 2, 3, 4, 5));
    expect(body).toBe('{"type":"order.complete","timestamp":"2025-01-02T03:04:05.000Z","data":{"order_id":"ord_1"}}');
  });
});
