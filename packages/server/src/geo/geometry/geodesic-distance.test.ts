import { distance as turfDistance } from "@turf/distance";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { geodesicDistance } from "./geodesic-distance.js";

/** Length of 1° of latitude centred on φ, from the series in the WGS 84 tables (metres). */
const degreeOfLatitude = (lat: number) => {
  const phi = (lat * Math.PI) / 180;
  return 111_132.954 - 559.822 * Math.cos(2 * phi) + 1.175 * Math.cos(4 * phi);
};

describe("geodesicDistance", () => {
  it("matches GeographicLib's published example, Wellington to Salamanca, to the millimetre", () => {
    expect(geodesicDistance([174.81, -41.32], [-5.5, 40.96])).toBeCloseTo(19_959_679.267, 3);
  });

  it("measures 1° of meridian as the WGS 84 tables do: 110,574 m at the equator, 111,132 m at 45°", () => {
    expect(geodesicDistance([0, 0], [0, 1])).toBeCloseTo(degreeOfLatitude(0.5), 0);
    expect(geodesicDistance([0, 0], [0, 1])).toBeCloseTo(110_574.3, 0);
    expect(geodesicDistance([-71, 44.5], [-71, 45.5])).toBeCloseTo(111_131.8, 0);
  });

  it("measures 1° along the equator as a·π/180", () => {
    expect(geodesicDistance([10, 0], [11, 0])).toBeCloseTo((6_378_137 * Math.PI) / 180, 6);
  });

  it("is zero from a point to itself, and symmetric", () => {
    expect(geodesicDistance([-71.06, 42.36], [-71.06, 42.36])).toBe(0);
    const position = fc.tuple(
      fc.double({ min: -180, max: 180, noNaN: true }),
      fc.double({ min: -90, max: 90, noNaN: true }),
    );
    fc.assert(
      fc.property(position, position, (a, b) => {
        expect(geodesicDistance(a, b)).toBeCloseTo(geodesicDistance(b, a), 6);
      }),
      { numRuns: 200 },
    );
  });

  it("agrees with turf's haversine distance within the sphere's error (0.6 %)", () => {
    const position = fc.tuple(
      fc.double({ min: -180, max: 180, noNaN: true }),
      fc.double({ min: -89, max: 89, noNaN: true }),
    );
    fc.assert(
      fc.property(position, position, (a, b) => {
        const ellipsoidal = geodesicDistance(a, b);
        const spherical = turfDistance(a, b, { units: "meters" });
        // Turf's haversine takes the root of a number just below zero for nearly antipodal points: no reference there.
        fc.pre(Number.isFinite(spherical));
        expect(Math.abs(ellipsoidal - spherical)).toBeLessThanOrEqual(0.006 * ellipsoidal + 1e-6);
      }),
      { numRuns: 200 },
    );
  });
});
