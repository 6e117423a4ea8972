import { describe, expect, it } from "vitest";
import { retryDelay } from "./retry-delay.js";

describe("retryDelay", () => {
  it("doubles from 5 s and stays at 60 s", () => {
    expect([1, 2, 3, 4, 5, 6, 100].map((attempt) => retryDelay(attempt))).toEqual([
      5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000,
    ]);
  });
});
