import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Geometry } from "../types.js";
import { decodeWkb, encodeWkb } from "./wkb.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();

describe("WKB", () => {
  it("writes the standard's bytes: POINT(1 2) and a unit square", () => {
    expect(hex(encodeWkb({ type: "Point", coordinates: [1, 2] }))).toBe("0101000000000000000000F03F0000000000000040");
    const square: Geometry = {
      type: "Polygon",
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    };
    expect(hex(encodeWkb(square))).toBe(
      "01030000000100000004000000" +
        "00000000000000000000000000000000" +
        "000000000000F03F0000000000000000" +
        "000000000000F03F000000000000F03F" +
        "00000000000000000000000000000000",
    );
  });

  it("reads big-endian WKB too, as other tools may write it", () => {
    expect(decodeWkb(Buffer.from("00000000013FF00000000000004000000000000000", "hex"))).toEqual({
      type: "Point",
      coordinates: [1, 2],
    });
  });

  it("reads positions with z, m or both in two dimensions, in ISO codes and in extended WKB", () => {
    const double = (value: number) => Buffer.from(new Float64Array([value]).buffer).toString("hex");
    const point = (code: string, ...ordinates: number[]) => `01${code}${ordinates.map(double).join("")}`;
    // POINT Z (1 2 3), POINT M (1 2 4), POINT ZM (1 2 3 4), and POINT Z in extended WKB (type 0x80000001).
    for (const bytes of [
      point("e9030000", 1, 2, 3),
      point("d1070000", 1, 2, 4),
      point("b90b0000", 1, 2, 3, 4),
      point("01000080", 1, 2, 3),
    ]) {
      expect(decodeWkb(Buffer.from(bytes, "hex"))).toEqual({ type: "Point", coordinates: [1, 2] });
    }
    // MULTIPOLYGON Z (((0 0 9, 1 0 9, 1 1 9, 0 0 9))): every member carries its own z code.
    const ring = [0, 0, 9, 1, 0, 9, 1, 1, 9, 0, 0, 9].map(double).join("");
    const multipolygon = `01ee0300000100000001eb0300000100000004000000${ring}`;
    expect(decodeWkb(Buffer.from(multipolygon, "hex"))).toEqual({
      type: "MultiPolygon",
      coordinates: [
        [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      ],
    });
  });

  it("gives back every geometry exactly, to the last bit of every coordinate", () => {
    const position = fc.tuple(
      fc.double({ min: -180, max: 180, noNaN: true }),
      fc.double({ min: -90, max: 90, noNaN: true }),
    );
    const ring = fc.array(position, { minLength: 4, maxLength: 12 });
    const polygon = fc.array(ring, { minLength: 1, maxLength: 3 });
    const geometry: fc.Arbitrary<Geometry> = fc.oneof(
      position.map((coordinates) => ({ type: "Point" as const, coordinates })),
      ring.map((coordinates) => ({ type: "LineString" as const, coordinates })),
      polygon.map((coordinates) => ({ type: "Polygon" as const, coordinates })),
      fc.array(position, { maxLength: 5 }).map((coordinates) => ({ type: "MultiPoint" as const, coordinates })),
      polygon.map((coordinates) => ({ type: "MultiLineString" as const, coordinates })),
      fc
        .array(polygon, { minLength: 1, maxLength: 3 })
        .map((coordinates) => ({ type: "MultiPolygon" as const, coordinates })),
    );
    const collection = fc
      .array(geometry, { maxLength: 3 })
      .map((geometries) => ({ type: "GeometryCollection" as const, geometries }));
    fc.assert(
      fc.property(fc.oneof(geometry, collection), (value) => {
        const bytes = encodeWkb(value);
        expect(decodeWkb(bytes)).toStrictEqual(value);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses bytes that are not one geometry", () => {
    const point = encodeWkb({ type: "Point", coordinates: [1, 2] });
    expect(() => decodeWkb(Buffer.concat([point, Buffer.from([0])]))).toThrow(/after its geometry/);
    expect(() => decodeWkb(Buffer.from("0109000000", "hex"))).toThrow(/type 9/);
    expect(() => decodeWkb(point.subarray(0, 10))).toThrow();
  });
});
