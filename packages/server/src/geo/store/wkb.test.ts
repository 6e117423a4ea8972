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
