import { describe, expect, it } from "vitest";
import { clampBbox, MAX_CONTEXT_SPAN } from "./clamp-bbox";

describe("clampBbox", () => {
  it("leaves a box within the limit as it is", () => {
    expect(clampBbox([-71.1, 42.37, -71.09, 42.38])).toEqual([-71.1, 42.37, -71.09, 42.38]);
  });

  it("narrows each too-wide side to the limit around its centre", () => {
    const [west, south, east, north] = clampBbox([-71.2, 42.3, -71.0, 42.31]);
    expect(east - west).toBeCloseTo(MAX_CONTEXT_SPAN, 10);
    expect((east + west) / 2).toBeCloseTo(-71.1, 10);
    expect([south, north]).toEqual([42.3, 42.31]);
  });

  it("stays under the API's 0.05° once rounded to six decimals, as the request sends it", () => {
    const [west = 0, south = 0, east = 0, north = 0] = clampBbox([10.1234567, 20.7654321, 10.3234567, 20.9654321]).map(
      (value) => Number(value.toFixed(6)),
    );
    expect(east - west).toBeLessThanOrEqual(0.05);
    expect(north - south).toBeLessThanOrEqual(0.05);
  });
});
