import { describe, expect, it } from "vitest";
import { encodeGeometry } from "./geometry-codec.js";
import { ParsedShapes } from "./parsed-shapes.js";

const point = (lon: number) => encodeGeometry({ type: "Point", coordinates: [lon, 42] });
const parse = (shapes: ParsedShapes, id: number, importId = 1) =>
  shapes.parse(id, importId, point(id), '["n"]', `[${id}]`);

describe("ParsedShapes", () => {
  it("keeps what it parsed, by row and import, with its attributes made on first use", () => {
    const shapes = new ParsedShapes(10_000);
    const shape = parse(shapes, 7);
    expect(shape.geometry).toEqual({ type: "Point", coordinates: [7, 42] });
    expect(shape.attributes).toEqual({ n: 7 });
    expect(shapes.get(7, 1)).toBe(shape);
    expect(shapes.get(7, 2)).toBeUndefined();
  });

  it("forgets the least recently used shapes once over its budget, and keeps the rest", () => {
    // Rows 100–199: 21 bytes of WKB and 5 of values each, 100 of them filling the budget exactly.
    const shapes = new ParsedShapes(26 * 100);
    for (let id = 100; id < 200; id++) parse(shapes, id);
    expect(shapes.get(100, 1)).toBeDefined();
    // Row 100 was just used; row 101 is now the least recently used, and goes first with those after it.
    parse(shapes, 200);
    expect(shapes.get(101, 1)).toBeUndefined();
    expect(shapes.get(100, 1)).toBeDefined();
    expect(shapes.get(200, 1)).toBeDefined();
    const kept = Array.from({ length: 101 }, (_, i) => 100 + i).filter((id) => shapes.get(id, 1) !== undefined);
    expect(kept.length).toBe(75);
  });

  it("keeps a row as its latest import wrote it, in place of the earlier one, counted once", () => {
    // Rows 100–199 fill the budget exactly (see above); the same rows from import 2 replace them, evicting none.
    const shapes = new ParsedShapes(26 * 100);
    for (let id = 100; id < 200; id++) parse(shapes, id, 1);
    for (let id = 100; id < 200; id++) parse(shapes, id, 2);
    const ids = Array.from({ length: 100 }, (_, i) => 100 + i);
    expect(ids.filter((id) => shapes.get(id, 2) !== undefined)).toHaveLength(100);
    expect(ids.filter((id) => shapes.get(id, 1) !== undefined)).toHaveLength(0);
  });

  it("does not keep a shape of more than a quarter of its budget", () => {
    const shapes = new ParsedShapes(80);
    parse(shapes, 5);
    expect(shapes.get(5, 1)).toBeUndefined();
  });
});
