import { describe, expect, it } from "vitest";
import { bboxOf } from "./bbox-of.js";
import { bboxPolygon } from "./bbox-polygon.js";
import { geodesicArea } from "./geodesic-area.js";
import { intersects } from "./intersects.js";
import { square } from "./test-shapes.js";

describe("bboxPolygon", () => {
  it("is the box itself: same bounds, an area, counter-clockwise", () => {
    const box = bboxPolygon([-71.1, 42.3, -71.0, 42.4]);
    expect(bboxOf(box)).toEqual([-71.1, 42.3, -71.0, 42.4]);
    expect(geodesicArea(box)).toBeGreaterThan(90_000_000);
    const [a, b] = box.coordinates[0] ?? [];
    expect(b?.[0]).toBeGreaterThan(a?.[0] ?? 0); // east along the south edge first: counter-clockwise
  });

  it("meets what lies in it or touches it, not what lies beside it", () => {
    const box = bboxPolygon([0, 0, 1, 1]);
    expect(intersects(box, square(0.5, 0.5, 0.1))).toBe(true);
    expect(intersects(box, square(1, 0.5, 0.1))).toBe(true);
    expect(intersects(box, square(1.01, 0.5, 0.1))).toBe(false);
  });
});
