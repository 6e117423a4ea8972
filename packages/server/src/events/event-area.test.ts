import { describe, expect, it } from "vitest";
import { bboxPolygon } from "../geo/geometry/bbox-polygon.js";
import type { BBox, Polygon, Position } from "../geo/types.js";
import { EventArea } from "./event-area.js";

/** A ring of `count` positions around `centre`, wavy so that its edges run every way. */
function wavyRing([lon, lat]: [number, number], radius: number, count: number): Position[] {
  const ring = Array.from({ length: count }, (_, i): Position => {
    const angle = (2 * Math.PI * i) / count;
    const r = radius * (1 + 0.2 * Math.sin(7 * angle));
    return [lon + r * Math.cos(angle), lat + r * Math.sin(angle)];
  });
  return [...ring, ring[0] as Position];
}

/** A flood extent with a dry island in it (a hole), and a deeper core of higher intensity overlapping it. */
const shore = wavyRing([-71.1, 42.37], 0.05, 3000);
const outer: Polygon = { type: "Polygon", coordinates: [shore, wavyRing([-71.1, 42.37], 0.012, 400).reverse()] };
const core: Polygon = { type: "Polygon", coordinates: [wavyRing([-71.06, 42.39], 0.02, 1500)] };
const event = new EventArea([
  { area: outer, intensity: 1.5 },
  { area: core, intensity: 3 },
]);

/** A pseudo-random sequence, the same every run. */
function randoms(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function highest(parts: Array<{ intensity: number | null }>): number {
  return Math.max(...parts.map((part) => part.intensity ?? 0));
}

describe("EventArea.boxSide", () => {
  it("tells what lies wholly inside or apart as relating the box's own outline does, with the same intensity", () => {
    const random = randoms(7);
    const decided = { inside: 0, apart: 0, across: 0 };
    for (let i = 0; i < 20_000; i++) {
      const [lon, lat] = [-71.17 + random() * 0.14, 42.3 + random() * 0.14];
      const side = 0.00005 + random() * 0.002;
      const box: BBox = [lon, lat, lon + side, lat + side * 0.7];
      const answer = event.boxSide(box);
      const exact = event.meeting(bboxPolygon(box));
      if (answer === "across") {
        decided.across += 1;
        continue;
      }
      if (answer === undefined) {
        decided.apart += 1;
        expect(exact, `box ${box} is not apart`).toBeUndefined();
      } else {
        decided.inside += 1;
        expect(exact?.within, `box ${box} is not wholly inside`).toBe(true);
        expect(highest(answer.parts)).toBe(highest(exact?.parts ?? []));
      }
    }
    // Most boxes are decided by their box alone; those across an edge are left to their geometry.
    expect(decided.inside).toBeGreaterThan(5000);
    expect(decided.apart).toBeGreaterThan(5000);
    expect(decided.across).toBeGreaterThan(0);
    expect(decided.across).toBeLessThan(decided.inside);
  });

  it("calls a box that an edge crosses across, whatever its size", () => {
    const [lon, lat] = shore[0] as [number, number];
    expect(event.boxSide([lon - 1e-6, lat - 1e-6, lon + 1e-6, lat + 1e-6])).toBe("across");
    expect(event.boxSide([-72, 42, -70, 43])).toBe("across");
  });

  it("finds the island dry and the core at its own intensity", () => {
    const island = event.boxSide([-71.1005, 42.3695, -71.0995, 42.3705]);
    expect(island).toBeUndefined();
    const deep = event.boxSide([-71.0605, 42.3895, -71.0595, 42.3905]);
    expect(deep === undefined || deep === "across" ? null : highest(deep.parts)).toBe(3);
  });
});
