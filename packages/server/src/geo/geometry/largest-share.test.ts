import { describe, expect, it } from "vitest";
import type { BBox } from "../types.js";
import { largestShare } from "./largest-share.js";
import { rectangle, square } from "./test-shapes.js";

describe("largestShare", () => {
  // Two lots side by side on a Boston street; the lot line runs along -71.059.
  const lot7 = rectangle(-71.06, 42.36, -71.059, 42.3605);
  const lot8 = rectangle(-71.059, 42.36, -71.058, 42.3605);

  it("gives a rowhouse straddling two lots 70/30 to the lot holding 70 %", () => {
    const rowhouse = rectangle(-71.0597, 42.3601, -71.0587, 42.3604);
    const best = largestShare(rowhouse, [
      { id: 8, area: lot8 },
      { id: 7, area: lot7 },
    ]);
    expect(best?.id).toBe(7);
    expect(best?.share).toBeCloseTo(0.7, 4);
    expect(largestShare(rowhouse, [{ id: 8, area: lot8 }])?.share).toBeCloseTo(0.3, 4);
  });

  it("gives a whole share to the lot that holds the building", () => {
    const shed = rectangle(-71.0598, 42.3601, -71.0594, 42.3603);
    expect(largestShare(shed, [{ id: "a", area: lot7 }])).toEqual({ id: "a", share: expect.closeTo(1, 9) });
  });

  it("reads no candidate's area after one holding the whole building, nor one whose box it is given apart", () => {
    const shed = rectangle(-71.0598, 42.3601, -71.0594, 42.3603);
    const unread = (box: BBox) => ({
      id: 0,
      box,
      get area(): never {
        throw new Error("read");
      },
    });
    const best = largestShare(shed, [
      unread([0, 0, 1, 1]),
      { id: 7, area: lot7 },
      unread([-71.06, 42.36, -71.05, 42.37]),
    ]);
    expect(best).toEqual({ id: 7, share: 1 });
  });

  it("is undefined when no candidate overlaps, and a lot that only touches does not count", () => {
    const shed = rectangle(-71.0598, 42.3601, -71.059, 42.3603);
    expect(largestShare(shed, [])).toBeUndefined();
    expect(largestShare(shed, [{ id: 1, area: square(0, 0, 0.001) }])).toBeUndefined();
    expect(largestShare(shed, [{ id: 8, area: lot8 }])).toBeUndefined();
    expect(
      largestShare(shed, [
        { id: 8, area: lot8 },
        { id: 7, area: lot7 },
      ])?.id,
    ).toBe(7);
  });

  it("breaks a tie in favour of the first candidate", () => {
    const shed = rectangle(-71.0598, 42.3601, -71.0594, 42.3603);
    const twice = [
      { id: "first", area: lot7 },
      { id: "second", area: lot7 },
    ];
    expect(largestShare(shed, twice)?.id).toBe("first");
    expect(largestShare(shed, [...twice].reverse())?.id).toBe("second");
  });

  it("takes a candidate's box as given, as the import's parcel assigner keeps them", () => {
    const rowhouse = rectangle(-71.0597, 42.3601, -71.0587, 42.3604);
    const box7: BBox = [-71.06, 42.36, -71.059, 42.3605];
    const box8: BBox = [-71.059, 42.36, -71.058, 42.3605];
    const withBoxes = [
      { id: 8, area: lot8, box: box8 },
      { id: 7, area: lot7, box: box7 },
    ];
    expect(largestShare(rowhouse, withBoxes)).toEqual({ id: 7, share: expect.closeTo(0.7, 4) });
    // A box far from the footprint rules its lot out without a look at the boundary.
    const farAway: BBox = [0, 0, 1, 1];
    expect(largestShare(rowhouse, [{ id: 7, area: lot7, box: farAway }])).toBeUndefined();
  });
});
