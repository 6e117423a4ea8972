import { ORDER_FAILURE_MESSAGES, orderFailureMessage } from "@lotline/contract";
import { describe, expect, it } from "vitest";
import { failureMessage } from "./failure-messages.js";
import { FAILURE_REASONS } from "./failure-reasons.js";

describe("failure messages", () => {
  it("gives every failure reason a sentence of its own, and no sentence to a reason that does not exist", () => {
    const sentences = FAILURE_REASONS.map(failureMessage);
    for (const sentence of sentences) expect(sentence).toMatch(/^[A-Z].+\.$/);
    expect(new Set(sentences).size).toBe(FAILURE_REASONS.length);
    expect(Object.keys(ORDER_FAILURE_MESSAGES).sort()).toEqual([...FAILURE_REASONS].sort());
  });

  it("answers a general sentence for a reason the contract does not know", () => {
    expect(orderFailureMessage("boundary_self_intersecting")).toBe(
      "The boundary crosses itself. Redraw it so that its edges do not cross.",
    );
    expect(orderFailureMessage("toString")).toBe("The order could not be completed.");
    expect(orderFailureMessage(undefined)).toBe("The order could not be completed.");
  });
});
