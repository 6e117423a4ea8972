import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Area, Polygon, Position } from "../types.js";
import {
  BAD_COORDINATES,
  CLOSED_RING,
  DROPPED_DUPLICATE_POSITIONS,
  DROPPED_ELEVATION,
  DROPPED_EMPTY_HOLE,
  DROPPED_EMPTY_POLYGON,
  EMPTY,
  HOLE_OUTSIDE_SHELL,
  MOVED_HOLE,
  NOT_POLYGONAL,
  RENODED,
  REWOUND,
  TOO_FEW_POSITIONS,
  UNWRAPPED_MULTIPOLYGON,
  ZERO_AREA,
} from "./area-validation.js";
import { geodesicArea } from "./geodesic-area.js";
import { planarRingArea } from "./planar-ring.js";
import { convexPolygon, rectangle, square } from "./test-shapes.js";
import { validateArea } from "./validate-area.js";

/** A valid result's geometry, failing the test otherwise. */
function repaired(input: unknown): { geometry: Area; repairs: string[] } {
  const result = validateArea(input);
  if (!result.valid) throw new Error(`expected a valid area, got ${result.reason}: ${result.detail}`);
  return { geometry: result.geometry, repairs: result.repairs };
}

function rejection(input: unknown) {
  const result = validateArea(input);
  if (result.valid) throw new Error(`expected a rejection, got ${JSON.stringify(result.geometry)}`);
  return result;
}

const ring = (polygon: Polygon) => polygon.coordinates[0] ?? [];
const reversed = (positions: Position[]) => [...positions].reverse();
const BOSTON_LOT = square(-71.06, 42.36, 0.001);

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("validateArea accepts", () => {
  it("a valid counter-clockwise polygon as it is, with no repairs", () => {
    expect(repaired(BOSTON_LOT)).toEqual({ geometry: BOSTON_LOT, repairs: [] });
  });

  it("a polygon with a hole, and a MultiPolygon with an island in a lake, with no repairs", () => {
    const lake = { type: "Polygon", coordinates: [ring(square(0, 0, 3)), reversed(ring(square(1, 1, 1)))] };
    expect(repaired(lake)).toEqual({ geometry: lake, repairs: [] });
    const island = { type: "MultiPolygon", coordinates: [lake.coordinates, square(1.25, 1.25, 0.5).coordinates] };
    expect(repaired(island)).toEqual({ geometry: island, repairs: [] });
  });

  it("polygons of a MultiPolygon that touch at one point, as they are", () => {
    const corners = { type: "MultiPolygon", coordinates: [square(0, 0, 1).coordinates, square(1, 1, 1).coordinates] };
    expect(repaired(corners)).toEqual({ geometry: corners, repairs: [] });
  });

  it("without changing or keeping hold of its input", () => {
    const input = deepFreeze({ type: "Polygon", coordinates: [reversed(ring(BOSTON_LOT)).slice(0, -1)] });
    const { geometry } = repaired(input);
    expect(geometry.coordinates).not.toBe(input.coordinates);
  });
});

describe("validateArea repairs", () => {
  it("an unclosed ring by closing it", () => {
    const open = ring(BOSTON_LOT).slice(0, -1);
    expect(repaired({ type: "Polygon", coordinates: [open] })).toEqual({
      geometry: BOSTON_LOT,
      repairs: [CLOSED_RING],
    });
  });

  it("a clockwise exterior and a counter-clockwise hole by rewinding them (RFC 7946)", () => {
    const { geometry, repairs } = repaired({
      type: "Polygon",
      coordinates: [reversed(ring(square(0, 0, 3))), ring(square(1, 1, 1))],
    });
    expect(repairs).toEqual([REWOUND]);
    const [exterior = [], hole = []] = (geometry as Polygon).coordinates;
    expect(planarRingArea(exterior)).toBeGreaterThan(0);
    expect(planarRingArea(hole)).toBeLessThan(0);
    expect(geometry).toEqual({
      type: "Polygon",
      coordinates: [ring(square(0, 0, 3)), reversed(ring(square(1, 1, 1)))],
    });
  });

  it("positions repeated one after another by dropping the repeats", () => {
    const [a, b, c, d] = ring(BOSTON_LOT) as [Position, Position, Position, Position];
    const input = { type: "Polygon", coordinates: [[a, a, b, c, c, c, d, a, a]] };
    expect(repaired(input)).toEqual({ geometry: BOSTON_LOT, repairs: [DROPPED_DUPLICATE_POSITIONS] });
  });

  it("elevations by dropping them", () => {
    const input = { type: "Polygon", coordinates: [ring(BOSTON_LOT).map(([lon, lat]) => [lon, lat, 12.5])] };
    expect(repaired(input)).toEqual({ geometry: BOSTON_LOT, repairs: [DROPPED_ELEVATION] });
  });

  it("a bow-tie into its two triangles", () => {
    const bowTie = {
      type: "Polygon",
      coordinates: [
        [
          [0, 0],
          [0.001, 0.001],
          [0.001, 0],
          [0, 0.001],
          [0, 0],
        ],
      ],
    };
    const { geometry, repairs } = repaired(bowTie);
    expect(repairs).toEqual([RENODED]);
    expect(geometry.type).toBe("MultiPolygon");
    const triangles = geometry.coordinates as Position[][][];
    expect(triangles).toHaveLength(2);
    for (const [exterior = [], ...holes] of triangles) {
      expect(exterior).toHaveLength(4);
      expect(holes).toHaveLength(0);
      expect(planarRingArea(exterior)).toBeGreaterThan(0);
    }
    const [west, east] = [...triangles].sort((p, q) => (p[0]?.[0]?.[0] ?? 0) - (q[0]?.[0]?.[0] ?? 0));
    expect(west?.[0]).toEqual(
      expect.arrayContaining([
        [0, 0],
        [0.0005, 0.0005],
        [0, 0.001],
      ]),
    );
    expect(east?.[0]).toEqual(
      expect.arrayContaining([
        [0.001, 0],
        [0.0005, 0.0005],
        [0.001, 0.001],
      ]),
    );
    expect(geodesicArea(geometry)).toBeCloseTo(geodesicArea(square(0, 0, 0.001)) / 2, 0);
  });

  it("overlapping polygons of a MultiPolygon by uniting them into one Polygon", () => {
    const input = { type: "MultiPolygon", coordinates: [square(0, 0, 2).coordinates, square(1, 0, 2).coordinates] };
    const { geometry, repairs } = repaired(input);
    expect(repairs).toEqual([RENODED, UNWRAPPED_MULTIPOLYGON]);
    expect(geometry.type).toBe("Polygon");
    expect(geodesicArea(geometry)).toBeCloseTo(geodesicArea(rectangle(0, 0, 3, 2)), 0);
  });

  it("polygons of a MultiPolygon sharing an edge by uniting them", () => {
    const input = { type: "MultiPolygon", coordinates: [square(0, 0, 1).coordinates, square(1, 0, 1).coordinates] };
    const { geometry, repairs } = repaired(input);
    expect(repairs).toEqual([RENODED, UNWRAPPED_MULTIPOLYGON]);
    expect(geometry).toEqual(rectangle(0, 0, 2, 1));
  });

  it("a MultiPolygon of one polygon by returning a Polygon", () => {
    const input = { type: "MultiPolygon", coordinates: [BOSTON_LOT.coordinates] };
    expect(repaired(input)).toEqual({ geometry: BOSTON_LOT, repairs: [UNWRAPPED_MULTIPOLYGON] });
  });

  it("a hole of zero area by dropping it", () => {
    const flatHole = [
      [1, 1],
      [2, 2],
      [1.5, 1.5],
      [1, 1],
    ];
    const input = { type: "Polygon", coordinates: [ring(square(0, 0, 3)), flatHole] };
    expect(repaired(input)).toEqual({ geometry: square(0, 0, 3), repairs: [DROPPED_EMPTY_HOLE] });
  });

  it("a polygon of zero area in a MultiPolygon by dropping it", () => {
    const flat = [
      [
        [5, 5],
        [6, 6],
        [7, 7],
        [5, 5],
      ],
    ];
    const input = { type: "MultiPolygon", coordinates: [flat, BOSTON_LOT.coordinates] };
    expect(repaired(input)).toEqual({ geometry: BOSTON_LOT, repairs: [DROPPED_EMPTY_POLYGON, UNWRAPPED_MULTIPOLYGON] });
  });

  it("a hole given to the wrong polygon of a MultiPolygon by moving it to the one that holds it", () => {
    const hole = reversed(ring(square(11, 1, 1)));
    const input = {
      type: "MultiPolygon",
      coordinates: [[ring(square(0, 0, 3)), hole], square(10, 0, 3).coordinates],
    };
    expect(repaired(input)).toEqual({
      geometry: { type: "MultiPolygon", coordinates: [square(0, 0, 3).coordinates, [ring(square(10, 0, 3)), hole]] },
      repairs: [MOVED_HOLE],
    });
  });

  it("a hole crossing its exterior by clipping the hole to it", () => {
    const input = {
      type: "Polygon",
      coordinates: [ring(square(0, 0, 0.002)), reversed(ring(square(0.001, 0.0005, 0.002)))],
    };
    const { geometry, repairs } = repaired(input);
    expect(repairs).toEqual([RENODED]);
    const expected = geodesicArea(square(0, 0, 0.002)) - geodesicArea(rectangle(0.001, 0.0005, 0.002, 0.002));
    expect(geodesicArea(geometry) / expected).toBeCloseTo(1, 9);
  });
});

describe("validateArea rejects", () => {
  it.each([
    ["a Point", { type: "Point", coordinates: [0, 0] }],
    [
      "a LineString",
      {
        type: "LineString",
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
    ],
    ["a Feature", { type: "Feature", geometry: BOSTON_LOT, properties: {} }],
    ["null", null],
    ["a string", "POLYGON((0 0, 1 0, 1 1, 0 0))"],
    [
      "an array",
      [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    ],
  ])("%s as NOT_POLYGONAL", (_, input) => {
    expect(rejection(input).reason).toBe(NOT_POLYGONAL);
  });

  it.each([
    ["a longitude past 180", [181, 0], "ring 1, position 2: longitude 181 is outside [-180, 180]"],
    ["a latitude past 90", [0, -90.5], "ring 1, position 2: latitude -90.5 is outside [-90, 90]"],
    ["NaN", [Number.NaN, 0], "ring 1, position 2: longitude NaN is not a finite number"],
    ["Infinity", [0, Number.POSITIVE_INFINITY], "ring 1, position 2: latitude Infinity is not a finite number"],
    ["a string", ["1", 0], "ring 1, position 2: longitude 1 is not a finite number"],
    ["a lone number", [1], "ring 1, position 2: not an array of longitude and latitude"],
  ])("a position with %s as BAD_COORDINATES", (_, position, detail) => {
    const input = { type: "Polygon", coordinates: [[[0, 0], position, [1, 1], [0, 1], [0, 0]]] };
    expect(rejection(input)).toEqual({ valid: false, reason: BAD_COORDINATES, detail });
  });

  it("coordinates that are not nested arrays as BAD_COORDINATES", () => {
    expect(rejection({ type: "Polygon" }).reason).toBe(BAD_COORDINATES);
    expect(rejection({ type: "Polygon", coordinates: [[0, 0, 1, 1]] }).reason).toBe(BAD_COORDINATES);
    expect(
      rejection({
        type: "MultiPolygon",
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      }).reason,
    ).toBe(BAD_COORDINATES);
  });

  it("an exterior ring of fewer than 3 distinct positions as TOO_FEW_POSITIONS", () => {
    expect(
      rejection({
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      }),
    ).toEqual({
      valid: false,
      reason: TOO_FEW_POSITIONS,
      detail: "ring 1 has 2 distinct positions; a ring needs 3",
    });
    expect(
      rejection({
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [0, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      }).reason,
    ).toBe(TOO_FEW_POSITIONS);
  });

  it("keeps a polygon whose hole has fewer than 3 distinct positions, dropping the hole (a real parcel has one)", () => {
    const tinyHole = [
      [1, 1],
      [1.5, 1.5],
      [1, 1],
    ];
    const result = validateArea({ type: "MultiPolygon", coordinates: [[ring(square(0, 0, 3)), tinyHole]] });
    expect(result.valid).toBe(true);
    if (result.valid) {
      expect(result.repairs).toContain(DROPPED_EMPTY_HOLE);
      expect(result.geometry.type).toBe("Polygon");
      expect(result.geometry.coordinates).toHaveLength(1);
    }
  });

  it("rings of zero area as ZERO_AREA", () => {
    const line = [
      [0, 0],
      [1, 1],
      [2, 2],
      [0, 0],
    ];
    expect(rejection({ type: "Polygon", coordinates: [line] }).reason).toBe(ZERO_AREA);
    expect(rejection({ type: "MultiPolygon", coordinates: [[line], [line]] }).reason).toBe(ZERO_AREA);
    const retraced = [
      [0, 0],
      [1, 0],
      [1, 1],
      [1, 0],
      [0, 0],
    ];
    expect(rejection({ type: "Polygon", coordinates: [retraced] }).reason).toBe(ZERO_AREA);
  });

  it("a hole outside its exterior that no other polygon holds as HOLE_OUTSIDE_SHELL", () => {
    const input = { type: "Polygon", coordinates: [ring(square(0, 0, 1)), reversed(ring(square(5, 5, 1)))] };
    expect(rejection(input)).toEqual({
      valid: false,
      reason: HOLE_OUTSIDE_SHELL,
      detail: "ring 2 is a hole outside its exterior ring",
    });
    const multi = { type: "MultiPolygon", coordinates: [square(10, 10, 1).coordinates, input.coordinates] };
    expect(rejection(multi).detail).toBe(
      "polygon 2, ring 2 is a hole outside its exterior ring, and inside no other polygon",
    );
  });

  it("nothing at all, or holes that cover their exterior, as EMPTY", () => {
    expect(rejection({ type: "Polygon", coordinates: [] }).reason).toBe(EMPTY);
    expect(rejection({ type: "MultiPolygon", coordinates: [] }).reason).toBe(EMPTY);
    const covered = { type: "Polygon", coordinates: [ring(square(0, 0, 1)), reversed(ring(square(-1, -1, 3)))] };
    expect(rejection(covered).reason).toBe(EMPTY);
  });
});

describe("validateArea, properties", () => {
  const convex = fc
    .record({
      lon: fc.double({ min: -179, max: 179, noNaN: true }),
      lat: fc.double({ min: -85, max: 85, noNaN: true }),
      radii: fc.tuple(
        fc.double({ min: 1e-5, max: 0.01, noNaN: true }),
        fc.double({ min: 1e-5, max: 0.01, noNaN: true }),
      ),
      angles: fc.uniqueArray(fc.integer({ min: 0, max: 359 }), { minLength: 3, maxLength: 16 }),
      clockwise: fc.boolean(),
    })
    .map(({ lon, lat, radii, angles, clockwise }) => {
      const polygon = convexPolygon([lon, lat], radii, angles);
      return clockwise ? { type: "Polygon" as const, coordinates: [reversed(ring(polygon))] } : polygon;
    });

  it("accepts a valid convex polygon with no repair but rewinding, and gives it back counter-clockwise", () => {
    fc.assert(
      fc.property(convex, (polygon) => {
        const { geometry, repairs } = repaired(polygon);
        const clockwise = planarRingArea(ring(polygon)) < 0;
        expect(repairs).toEqual(clockwise ? [REWOUND] : []);
        expect(geometry).toEqual(clockwise ? { type: "Polygon", coordinates: [reversed(ring(polygon))] } : polygon);
      }),
      { numRuns: 200 },
    );
  });

  it("never throws on scrambled rings, and what it repairs stays repaired", () => {
    const scrambled = fc.array(
      fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 })).map(([x, y]) => [x / 1e4, y / 1e4]),
      { minLength: 0, maxLength: 12 },
    );
    const multiPolygon = fc.array(fc.array(scrambled, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(multiPolygon, (polygons) => {
        const first = validateArea({ type: "MultiPolygon", coordinates: polygons });
        if (!first.valid) return;
        const again = validateArea(first.geometry);
        expect(again).toEqual({ valid: true, geometry: first.geometry, repairs: [] });
      }),
      { numRuns: Number(process.env.GEOMETRY_RUNS ?? 200) },
    );
  });
});

describe("validateArea with a degenerate piece", () => {
  it("drops a MultiPolygon piece reduced to one position and keeps the rest (Cambridge parcel 250-209)", () => {
    const result = validateArea({
      type: "MultiPolygon",
      coordinates: [
        [ring(square(0, 0, 3))],
        [
          [
            [5, 5],
            [5, 5],
            [5, 5],
            [5, 5],
          ],
        ],
      ],
    });
    expect(result.valid).toBe(true);
    if (result.valid) {
      expect(result.geometry.type).toBe("Polygon");
      expect(result.repairs).toContain(DROPPED_EMPTY_POLYGON);
    }
  });
});
