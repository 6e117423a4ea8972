import { describe, expect, it } from "vitest";
import { retryAfterMs } from "./retry-after.js";

describe("retryAfterMs", () => {
  const now = Date.UTC(2026, 10, 22, 12);

  it("reads delay-seconds", () => {
    expect(retryAfterMs("120", now)).toBe(120_000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
  });

  it("reads an HTTP date against the given wall clock, a past date meaning now", () => {
    expect(retryAfterMs("Sun, 22 Nov 2026 12:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("Sun, 22 Nov 2026 11:00:00 GMT", now)).toBe(0);
  });

  it("ignores what it cannot read", () => {
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs("-5", now)).toBeUndefined();
  });
});
