import { describe, expect, it } from "vitest";
import { similarity } from "./similarity.js";

describe("similarity", () => {
  it.each<[string, string, number]>([
    ["GORE", "GORE", 1],
    ["O BRIEN", "OBRIEN", 1],
    ["GORE", "GOER", 0.75],
    ["GORE", "GOR", 0.75],
    ["SCIARAPPA", "SCIARAPA", 8 / 9],
    ["ELM", "OAK", 0],
    ["", "", 1],
    ["", "ELM", 0],
  ])("%s ~ %s = %d", (a, b, expected) => {
    expect(similarity(a, b)).toBeCloseTo(expected, 10);
    expect(similarity(b, a)).toBeCloseTo(expected, 10);
  });
});
