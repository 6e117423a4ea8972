import { describe, expect, it } from "vitest";
import { formatTimeLeft } from "./time-left";

describe("formatTimeLeft", () => {
  it("shows minutes and seconds as mm:ss, rounding up so 00:00 means ended", () => {
    expect(formatTimeLeft(299_001)).toBe("05:00");
    expect(formatTimeLeft(61_000)).toBe("01:01");
    expect(formatTimeLeft(400)).toBe("00:01");
    expect(formatTimeLeft(0)).toBe("00:00");
    expect(formatTimeLeft(-5_000)).toBe("00:00");
  });
});
