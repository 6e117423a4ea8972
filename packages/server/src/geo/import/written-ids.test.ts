import { describe, expect, it } from "vitest";
import { WrittenIds } from "./written-ids.js";

describe("WrittenIds", () => {
  it("holds every id written, through filters that fill and grow, and few of those never written", () => {
    const ids = new WrittenIds();
    const written = 300_000;
    for (let n = 1; n <= written; n++) ids.add(`${n}-${n % 97}/3`);
    for (let n = 1; n <= written; n++) if (!ids.mayHold(`${n}-${n % 97}/3`)) expect.fail(`${n} was written`);
    let mistaken = 0;
    const never = 50_000;
    // Near misses: the same characters in another order, another tile, a prefix.
    for (let n = 1; n <= never; n++) {
      for (const id of [`${n % 97}-${n}/3`, `${n}-${n % 97}/4`, `${n}-${n % 97}`]) if (ids.mayHold(id)) mistaken += 1;
    }
    // Each of the filters is asked: a few % at most.
    expect(mistaken / (3 * never)).toBeLessThan(0.03);
  });

  it("tells an empty id from none written", () => {
    const ids = new WrittenIds();
    expect(ids.mayHold("")).toBe(false);
    ids.add("");
    expect(ids.mayHold("")).toBe(true);
  });
});
