import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { positionCount } from "../geometry/positions.js";
import type { Geometry } from "../types.js";
import {
  decodeGeometry,
  encodeGeometry,
  onStoredGrid,
  sameStoredGeometry,
  storedPositionCount,
} from "./geometry-codec.js";
import { encodeWkb } from "./wkb.js";

const outline = [
  [-71.1189466, 42.3736117],
  [-71.1187163, 42.3734912],
  [-71.1185891, 42.3736404],
  [-71.1188194, 42.3737609],
  [-71.1189466, 42.3736117],
];
const lot = {
  type: "Polygon",
  coordinates: [
    outline,
    [
      [-71.1188, 42.37361],
      [-71.1187, 42.37362],
      [-71.11875, 42.37365],
      [-71.1188, 42.37361],
    ],
  ],
} satisfies Geometry;

const EVERY_TYPE: Geometry[] = [
  { type: "Point", coordinates: [-179.999999999, -89.123456789] },
  {
    type: "LineString",
    coordinates: [
      [-71.1, 42.3],
      [-71.2, 42.4],
      [179.5, -45.25],
    ],
  },
  lot,
  {
    type: "MultiPoint",
    coordinates: [
      [0, 0],
      [-0.000000001, 0.000000001],
    ],
  },
  {
    type: "MultiLineString",
    coordinates: [
      [
        [1, 2],
        [3, 4],
      ],
      [[5, 6]],
    ],
  },
  { type: "MultiPolygon", coordinates: [lot.coordinates, [outline]] },
  {
    type: "GeometryCollection",
    geometries: [
      { type: "Point", coordinates: [10, 20] },
      {
        type: "GeometryCollection",
        geometries: [
          lot,
          {
            type: "LineString",
            coordinates: [
              [1, 1],
              [2, 2],
            ],
          },
        ],
      },
    ],
  },
];

describe("stored geometry", () => {
  it("gives back every type exactly when its positions have nine decimals or fewer", () => {
    for (const geometry of EVERY_TYPE) expect(decodeGeometry(encodeGeometry(geometry))).toStrictEqual(geometry);
  });

  it("puts every type where storing puts it, and gives back one already there as it is", () => {
    for (const geometry of EVERY_TYPE) expect(onStoredGrid(geometry)).toBe(geometry);
    const offGrid: Geometry[] = [
      { type: "Point", coordinates: [-71.1189466123, 42.3736117] },
      { type: "Point", coordinates: [-71.1189466, 42.3736117, 12.5] },
      {
        type: "MultiPolygon",
        coordinates: [lot.coordinates, [outline.map(([lon = 0, lat = 0]) => [lon, lat + 1e-12])]],
      },
      {
        type: "GeometryCollection",
        geometries: [
          lot,
          {
            type: "LineString",
            coordinates: [
              [0, 0],
              [1e-10, 1],
            ],
          },
        ],
      },
    ];
    for (const geometry of offGrid) {
      const stored = onStoredGrid(geometry);
      expect(stored).not.toBe(geometry);
      expect(stored).toStrictEqual(decodeGeometry(encodeGeometry(geometry)));
    }
    expect(() => onStoredGrid({ type: "Point", coordinates: [Number.POSITIVE_INFINITY, 0] })).toThrow(/finite/);
  });

  it("counts the positions of every type without building it, packed or WKB", () => {
    for (const geometry of EVERY_TYPE) {
      expect(storedPositionCount(encodeGeometry(geometry))).toBe(positionCount(geometry));
      expect(storedPositionCount(encodeWkb(geometry))).toBe(positionCount(geometry));
    }
    expect(storedPositionCount(encodeGeometry(lot))).toBe(9);
  });

  it("keeps any position within half a 10⁻⁹ degree step of where it was", () => {
    const coordinate = (limit: number) => fc.double({ min: -limit, max: limit, noNaN: true });
    fc.assert(
      fc.property(fc.array(fc.tuple(coordinate(180), coordinate(90)), { minLength: 1, maxLength: 20 }), (line) => {
        const decoded = decodeGeometry(encodeGeometry({ type: "LineString", coordinates: line }));
        if (decoded.type !== "LineString") return false;
        return decoded.coordinates.every(
          ([lon = Number.NaN, lat = Number.NaN], i) =>
            Math.abs(lon - (line[i]?.[0] ?? 0)) <= 0.5e-9 + 1e-15 &&
            Math.abs(lat - (line[i]?.[1] ?? 0)) <= 0.5e-9 + 1e-15,
        );
      }),
    );
  });

  it("takes well under half the bytes of WKB for a lot's polygon", () => {
    expect(encodeGeometry(lot).byteLength).toBeLessThan(encodeWkb(lot).byteLength * 0.4);
  });

  it("reads the WKB of rows written before geometry was packed", () => {
    for (const geometry of EVERY_TYPE) expect(decodeGeometry(encodeWkb(geometry))).toStrictEqual(geometry);
  });

  it("finds a stored row unchanged whether it holds WKB or packed bytes, and changed when it is not the same", () => {
    const packed = encodeGeometry(lot);
    expect(sameStoredGeometry(encodeWkb(lot), packed)).toBe(true);
    expect(sameStoredGeometry(encodeGeometry(lot), packed)).toBe(true);
    const withoutHole = { type: "Polygon", coordinates: [outline] } satisfies Geometry;
    expect(sameStoredGeometry(encodeWkb(withoutHole), packed)).toBe(false);
    expect(sameStoredGeometry(encodeGeometry(withoutHole), packed)).toBe(false);
  });

  it("refuses a position that is not a number, and bytes cut short or with more after them", () => {
    expect(() => encodeGeometry({ type: "Point", coordinates: [Number.NaN, 1] })).toThrow(/finite/);
    const bytes = encodeGeometry(lot);
    expect(() => decodeGeometry(bytes.subarray(0, bytes.byteLength - 1))).toThrow(/ends early/);
    expect(() => decodeGeometry(Buffer.concat([bytes, Buffer.from([0])]))).toThrow(/after it/);
  });

  it("writes a Buffer of its own, not a view of a larger one that would cross to a thread whole", () => {
    const bytes = encodeGeometry(lot);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
  });
});
