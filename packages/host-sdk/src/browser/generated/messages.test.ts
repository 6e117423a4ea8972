import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONTRACT_MESSAGES_FILE, MESSAGES_FILE, renderMessages } from "../../../scripts/generate-messages.js";

describe("the SDK's copy of the contract's window messages", () => {
  it("is the contract's messages.ts as it is now (else: npm run generate:messages -w @lotline/host-sdk)", () => {
    const expected = renderMessages(readFileSync(CONTRACT_MESSAGES_FILE, "utf8"));
    const committed = readFileSync(MESSAGES_FILE, "utf8");
    expect(
      committed === expected,
      "src/browser/generated/messages.ts is out of date: run `npm run generate:messages -w @lotline/host-sdk`",
    ).toBe(true);
  });
});
