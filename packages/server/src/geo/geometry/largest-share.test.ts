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

  it("relates a lot whose box holds the building before the lots beside it, and reads none of those", () => {
    const shed = rectangle(-71.0598, 42.3601, -71.0594, 42.3603);
    // A neighbour's box meets the shed's box without holding it: it cannot hold the whole shed.
    const neighbour = {
      id: 6,
      box: [-71.0605, 42.3602, -71.0597, 42.361] as BBox,
      get area(): never {
        throw new Error("read");
      },
    };
    expect(largestShare(shed, [neighbour, { id: 7, area: lot7 }])).toEqual({ id: 7, share: 1 });
  });

  it("breaks a tie between a lot whose box holds the building and one whose box does not by their order", () => {
    // On a grid of binary fractions, so that both halves measure exactly alike: the building's west half lies in
    // an L-shaped lot whose box holds the whole building, its east half in a plain lot beside it.
    const step = 1 / 1024;
    const at = (x: number, y: number): [number, number] => [-71 + x * step, 42 + y * step];
    const building = rectangle(...at(0, 0), ...at(2, 1));
    const lShaped = {
      id: "l-shaped",
      area: {
        type: "Polygon" as const,
        coordinates: [[at(-1, -2), at(4, -2), at(4, -1), at(1, -1), at(1, 2), at(-1, 2), at(-1, -2)]],
      },
    };
    const plain = { id: "plain", area: rectangle(...at(1, -0.5), ...at(3, 2)) };
    const [first, second] = [largestShare(building, [plain, lShaped]), largestShare(building, [lShaped, plain])];
    expect(first?.share).toBeCloseTo(0.5, 9);
    expect(first).toEqual({ id: "plain", share: first?.share });
    expect(second).toEqual({ id: "l-shaped", share: first?.share });
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
