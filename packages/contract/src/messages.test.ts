import { describe, expect, it } from "vitest";
import { isServiceMessage } from "./messages.js";

describe("service-order-complete", () => {
  it("may say how processing ended, and why a failed order failed", () => {
    expect(isServiceMessage({ type: "service-order-complete", property_id: 7 })).toBe(true);
    expect(isServiceMessage({ type: "service-order-complete", property_id: 7, status: "complete" })).toBe(true);
    expect(
      isServiceMessage({
        type: "service-order-complete",
        property_id: 7,
        status: "failed",
        reason: "address_not_found",
      }),
    ).toBe(true);
  });

  it("is refused with an outcome or a reason it cannot be", () => {
    expect(isServiceMessage({ type: "service-order-complete", property_id: 7, status: "done" })).toBe(false);
    expect(isServiceMessage({ type: "service-order-complete", property_id: 7, status: "failed", reason: 3 })).toBe(
      false,
    );
  });
});
