import { describe, expect, it } from "vitest";
import { targetOrigins } from "./target-origins";

const registered = ["https://core.example", "https://backup.example"];

describe("targetOrigins", () => {
  it("posts only to the framing page's origin when the browser names it and it is registered", () => {
    expect(targetOrigins({ ancestorOrigin: "https://backup.example" }, registered)).toEqual(["https://backup.example"]);
  });

  it("falls back to the referrer's origin", () => {
    expect(targetOrigins({ referrer: "https://core.example/policies/7?tab=map" }, registered)).toEqual([
      "https://core.example",
    ]);
  });

  it("posts to each registered origin when nothing names the host, or it names an unregistered one", () => {
    expect(targetOrigins({ ancestorOrigin: "https://evil.example", referrer: "" }, registered)).toEqual(registered);
    expect(targetOrigins({}, registered)).toEqual(registered);
  });

  it("never targets '*', and targets nothing when nothing is registered", () => {
    expect(targetOrigins({}, ["*", "https://core.example"])).toEqual(["https://core.example"]);
    expect(targetOrigins({ ancestorOrigin: "https://core.example" }, [])).toEqual([]);
  });
});
