import { describe, expect, it } from "vitest";
import { areaBbox } from "./area-bbox";

describe("areaBbox", () => {
  it("spans every ring of every polygon of a MultiPolygon", () => {
    const area = {
      type: "MultiPolygon",
      coordinates: [
        [
          [
            [-71.1, 42.3],
            [-71.0, 42.3],
            [-71.0, 42.4],
            [-71.1, 42.3],
          ],
        ],
        [
          [
            [-71.3, 42.2],
            [-71.2, 42.2],
            [-71.2, 42.25],
            [-71.3, 42.2],
          ],
        ],
      ],
    };
    expect(areaBbox(area)).toEqual([-71.3, 42.2, -71.0, 42.4]);
  });

  it("is undefined for a geometry without positions", () => {
    expect(areaBbox({ coordinates: [] })).toBeUndefined();
  });
});
