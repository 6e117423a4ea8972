import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { booleanIntersects } from "@turf/boolean-intersects";
import { describe, expect, it } from "vitest";
import { collect } from "../readers/test-collect.js";
import type { Area } from "../types.js";
import { areasMeet } from "./areas-meet.js";
import { bboxOf } from "./bbox-of.js";
import { bboxesMeet } from "./bboxes-meet.js";
import { square } from "./test-shapes.js";

const CAMBRIDGE = fileURLToPath(new URL("../../../../../../shared/data/cambridge/", import.meta.url));

/** A square with a square hole: the outer `size` degrees from `[lon, lat]`, the hole its middle third. */
function frame(lon: number, lat: number, size: number): Area {
  const third = size / 3;
  const hole = square(lon + third, lat + third, third).coordinates[0] ?? [];
  return { type: "Polygon", coordinates: [square(lon, lat, size).coordinates[0] ?? [], [...hole].reverse()] };
}

describe("areasMeet", () => {
  it("finds overlapping, touching and nested areas, in either order", () => {
    for (const [a, b] of [
      [square(0, 0, 2), square(1, 1, 2)],
      [square(0, 0, 1), square(1, 0, 1)],
      [square(0, 0, 1), square(1, 1, 1)],
      [square(0, 0, 3), square(1, 1, 1)],
    ] as const) {
      expect(areasMeet(a, b)).toBe(true);
      expect(areasMeet(b, a)).toBe(true);
    }
  });

  it("tells an area inside a hole (apart) from one touching the hole's edge or spanning it (meeting)", () => {
    const outer = frame(0, 0, 3);
    expect(areasMeet(outer, square(1.25, 1.25, 0.5))).toBe(false);
    expect(areasMeet(square(1.25, 1.25, 0.5), outer)).toBe(false);
    expect(areasMeet(outer, square(1, 1.25, 0.5))).toBe(true);
    expect(areasMeet(outer, square(0.5, 0.5, 2))).toBe(true);
  });

  it("takes every part of a MultiPolygon", () => {
    const parts: Area = {
      type: "MultiPolygon",
      coordinates: [square(0, 0, 1).coordinates, square(5, 5, 1).coordinates],
    };
    expect(areasMeet(parts, square(5.5, 5.5, 0.1))).toBe(true);
    expect(areasMeet(square(5.5, 5.5, 0.1), parts)).toBe(true);
    expect(areasMeet(parts, square(2, 2, 1))).toBe(false);
  });
});

describe.skipIf(!existsSync(CAMBRIDGE))(
  "areasMeet on the real Cambridge data, against turf's booleanIntersects (../shared/data; skipped where absent)",
  () => {
    it("answers as turf for buildings against flood zones, zoning districts and one another", async () => {
      const buildings: Area[] = [];
      for (const record of await collect(`${CAMBRIDGE}buildings-east-cambridge/Buildings.shp`)) {
        const geometry = "feature" in record ? record.feature.geometry : null;
        if (geometry?.type === "Polygon" || geometry?.type === "MultiPolygon") buildings.push(geometry);
      }
      const layers: Area[] = ["fema-floodplain-500yr", "zoning-districts", "historic-districts"].flatMap((name) =>
        (
          JSON.parse(readFileSync(`${CAMBRIDGE}layers/${name}.geojson`, "utf8")) as {
            features: Array<{ geometry: Area }>;
          }
        ).features.map((feature) => feature.geometry),
      );
      const compared = { pairs: 0, meeting: 0 };
      const compare = (a: Area, b: Area) => {
        if (!bboxesMeet(bboxOf(a), bboxOf(b))) return;
        const expected = booleanIntersects(a, b);
        expect(areasMeet(a, b)).toBe(expected);
        compared.pairs++;
        if (expected) compared.meeting++;
      };
      for (let i = 0; i < buildings.length; i += 7) {
        const building = buildings[i] as Area;
        for (const layer of layers) compare(building, layer);
        // Neighbours in the file are often neighbours on the ground: some touch, some only share a box.
        for (let j = i + 1; j < Math.min(buildings.length, i + 40); j++) compare(building, buildings[j] as Area);
      }
      expect(compared.pairs).toBeGreaterThan(1000);
      expect(compared.meeting).toBeGreaterThan(100);
      expect(compared.pairs - compared.meeting).toBeGreaterThan(100);
    });
  },
);
