import { describe, expect, it } from "vitest";
import { checkIframeToken } from "./fetch-token.js";

describe("checkIframeToken", () => {
  it("accepts { token, expiresIn } and refuses other shapes", () => {
    expect(checkIframeToken({ token: "t", expiresIn: 60, extra: 1 })).toEqual({ token: "t", expiresIn: 60 });
    for (const value of [
      null,
      {},
      { token: "", expiresIn: 60 },
      { token: "t", expiresIn: 0 },
      { token: "t", expires_in: 60 },
    ]) {
      expect(() => checkIframeToken(value)).toThrow(TypeError);
    }
  });
});
