import type { Polygon } from "geojson";
import { describe, expect, it } from "vitest";
import { boundaryHistory, IMPORTED, initialBoundaryHistory } from "./boundary-history";

const square = (size: number): Polygon => ({
  type: "Polygon",
  coordinates: [
    [
      [0, 0],
      [size, 0],
      [size, size],
      [0, 0],
    ],
  ],
});

describe("boundaryHistory", () => {
  it("undoes accepted drawings one by one back to the imported boundary", () => {
    let history = boundaryHistory(initialBoundaryHistory, { type: "accept", choice: { drawn: square(1) } });
    history = boundaryHistory(history, { type: "accept", choice: { drawn: square(2) } });
    expect(history.current.drawn).toEqual(square(2));
    history = boundaryHistory(history, { type: "undo" });
    expect(history.current.drawn).toEqual(square(1));
    history = boundaryHistory(history, { type: "undo" });
    expect(history.current).toEqual(IMPORTED);
    expect(boundaryHistory(history, { type: "undo" })).toBe(history);
  });

  it("makes Reset a change that Undo reverts, and a no-op on the imported boundary", () => {
    const drawn = boundaryHistory(initialBoundaryHistory, { type: "accept", choice: { drawn: square(1) } });
    const reset = boundaryHistory(drawn, { type: "reset" });
    expect(reset.current).toEqual(IMPORTED);
    expect(boundaryHistory(reset, { type: "undo" }).current.drawn).toEqual(square(1));
    expect(boundaryHistory(initialBoundaryHistory, { type: "reset" })).toBe(initialBoundaryHistory);
  });

  it("starts over with nothing to undo for another lot", () => {
    const drawn = boundaryHistory(initialBoundaryHistory, { type: "accept", choice: { drawn: square(1) } });
    expect(boundaryHistory(drawn, { type: "start-over" })).toEqual(initialBoundaryHistory);
  });
});
