import { area } from "@turf/area";
import { bbox } from "@turf/bbox";
import { booleanIntersects } from "@turf/boolean-intersects";
import { kinks } from "@turf/kinks";
import fc from "fast-check";
import polygonClipping from "polygon-clipping";
import { beforeAll, describe, expect, it } from "vitest";
import type { BBox, Feature, Polygon, Position } from "../types.js";
import { DEFAULT_SEED, DEMO_DATASET, DEMO_LOCATION, type DemoNeighbourhood, generateNeighbourhood } from "./index.js";
import { fromMetres, toMetres } from "./location.js";

// Two polygons that only share edges still "intersect" in a few square millimetres of rounding; anything from
// a square decimetre up is a real overlap.
const OVERLAP = 0.01;

type AnyPolygon = Feature<Polygon, object>;

const boxes = new WeakMap<object, BBox>();
function boxOf(feature: AnyPolygon): BBox {
  let box = boxes.get(feature);
  if (!box) {
    box = bbox(feature) as BBox;
    boxes.set(feature, box);
  }
  return box;
}

function boxesMeet(a: BBox, b: BBox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/** Pairs whose bounding boxes meet: the only ones worth a polygon intersection. */
function candidatePairs<A extends AnyPolygon, B extends AnyPolygon>(as: readonly A[], bs: readonly B[]): [A, B][] {
  const out: [A, B][] = [];
  for (const a of as)
    for (const b of bs) if ((a as AnyPolygon) !== b && boxesMeet(boxOf(a), boxOf(b))) out.push([a, b]);
  return out;
}

/** Square metres the two polygons share (polygon-clipping: the same cut as turf's `intersect`, several times faster). */
function overlapArea(a: AnyPolygon, b: AnyPolygon): number {
  const rings = (f: AnyPolygon) => f.geometry.coordinates as polygonClipping.Polygon;
  const shared = polygonClipping.intersection(rings(a), rings(b));
  return shared.length > 0 ? area({ type: "MultiPolygon", coordinates: shared }) : 0;
}

const idOf = (feature: AnyPolygon): string => {
  const p = feature.properties as { parcel_id?: string; building_id?: string; fld_ar_id?: string };
  return p.parcel_id ?? p.building_id ?? p.fld_ar_id ?? "?";
};

/** RFC 7946 polygon rings: one ring, closed, four positions or more, counter-clockwise, not crossing itself. */
function ringProblems(features: readonly AnyPolygon[]): string[] {
  const problems: string[] = [];
  for (const feature of features) {
    const rings = feature.geometry.coordinates;
    const ring = rings[0] ?? [];
    const [first, last] = [ring[0], ring.at(-1)];
    let twice = 0;
    for (let i = 0; i + 1 < ring.length; i++) {
      const [a, b] = [ring[i] as Position, ring[i + 1] as Position];
      twice += (a[0] ?? 0) * (b[1] ?? 0) - (b[0] ?? 0) * (a[1] ?? 0);
      if (a[0] === b[0] && a[1] === b[1]) problems.push(`${idOf(feature)} repeats a position`);
    }
    if (rings.length !== 1) problems.push(`${idOf(feature)} has ${rings.length} rings`);
    if (ring.length < 4) problems.push(`${idOf(feature)} has ${ring.length} positions`);
    if (!first || !last || first[0] !== last[0] || first[1] !== last[1])
      problems.push(`${idOf(feature)} is not closed`);
    if (twice <= 0) problems.push(`${idOf(feature)} runs clockwise`);
    if (kinks(feature).features.length > 0) problems.push(`${idOf(feature)} crosses itself`);
  }
  return problems;
}

function parcelOverlapProblems(n: DemoNeighbourhood): string[] {
  return candidatePairs(n.parcels, n.parcels)
    .filter(([a, b]) => idOf(a) < idOf(b) && overlapArea(a, b) > OVERLAP)
    .map(([a, b]) => `parcels ${idOf(a)} and ${idOf(b)} overlap`);
}

/** Each street's right-of-way as rectangles around its centreline, `inset` metres narrower on each side. */
function corridors(n: DemoNeighbourhood, inset: number): AnyPolygon[] {
  return n.streets.flatMap((street) => {
    const line = street.line.coordinates.map(toMetres);
    return line.slice(1).map((b, i): AnyPolygon => {
      const a = line[i] ?? b;
      const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const half = street.width / 2 - inset;
      const [nx, ny] = [(-(b[1] - a[1]) / length) * half, ((b[0] - a[0]) / length) * half];
      const corners = [
        [a[0] - nx, a[1] - ny],
        [b[0] - nx, b[1] - ny],
        [b[0] + nx, b[1] + ny],
        [a[0] + nx, a[1] + ny],
      ] as const;
      const ring = [...corners, corners[0]].map(fromMetres);
      return {
        type: "Feature",
        properties: { fld_ar_id: street.full },
        geometry: { type: "Polygon", coordinates: [ring] },
      };
    });
  });
}

function streetProblems(n: DemoNeighbourhood): string[] {
  // Five centimetres of slack for the centimetre rounding of coordinates.
  return candidatePairs(n.parcels, corridors(n, 0.05))
    .filter(([parcel, corridor]) => booleanIntersects(parcel, corridor))
    .map(([parcel, corridor]) => `parcel ${idOf(parcel)} reaches into ${idOf(corridor)}`);
}

/** Each building's overlap with every parcel it touches, largest first. */
type Building = DemoNeighbourhood["buildings"][number];

function shares(n: DemoNeighbourhood): Map<Building, { parcel: string; area: number }[]> {
  const out = new Map<Building, { parcel: string; area: number }[]>();
  for (const building of n.buildings) out.set(building, []);
  for (const [building, parcel] of candidatePairs(n.buildings, n.parcels)) {
    const shared = overlapArea(building, parcel);
    if (shared > OVERLAP) out.get(building)?.push({ parcel: idOf(parcel), area: shared });
  }
  for (const list of out.values()) list.sort((a, b) => b.area - a.area);
  return out;
}

function buildingProblems(n: DemoNeighbourhood): string[] {
  const problems: string[] = [];
  for (const [building, touched] of shares(n)) {
    const whole = area(building);
    const id = idOf(building);
    if (whole < 5 || whole > 5000) problems.push(`building ${id} has ${whole.toFixed(1)} m²`);
    const largest = touched[0]?.area ?? 0;
    if (building.properties.kind === "rowhouse") {
      if (largest <= whole / 2) problems.push(`no parcel holds most of rowhouse ${id}`);
    } else if (touched.length !== 1 || largest < whole * 0.999) {
      problems.push(`building ${id} is not inside one parcel (${touched.map((t) => t.parcel).join(", ")})`);
    }
  }
  for (const [a, b] of candidatePairs(n.buildings, n.buildings)) {
    if (idOf(a) < idOf(b) && overlapArea(a, b) > OVERLAP) problems.push(`buildings ${idOf(a)} and ${idOf(b)} overlap`);
  }
  return problems;
}

function addressProblems(n: DemoNeighbourhood): string[] {
  const problems: string[] = [];
  const parcelIds = new Set(n.parcels.map((p) => p.properties.parcel_id));
  const byParcel = new Map<string, DemoNeighbourhood["addresses"]>();
  for (const a of n.addresses) byParcel.set(a.parcel_id, [...(byParcel.get(a.parcel_id) ?? []), a]);
  for (const id of parcelIds) if (!byParcel.has(id)) problems.push(`parcel ${id} has no address`);
  for (const [id, list] of byParcel) {
    if (!parcelIds.has(id)) problems.push(`address names unknown parcel ${id}`);
    if (list.length > 1 && new Set(list.map((a) => a.unit)).size !== list.length) problems.push(`${id}: units repeat`);
    if (list.length > 1 && list.some((a) => a.unit === undefined)) problems.push(`${id}: several addresses, no unit`);
    if (new Set(list.map((a) => `${a.number} ${a.street}`)).size !== 1) problems.push(`${id}: more than one address`);
  }
  const keys = n.addresses.map((a) => `${a.number} ${a.street} ${a.unit ?? ""}`);
  if (new Set(keys).size !== keys.length) problems.push("addresses repeat");
  for (const a of n.addresses) if (!/^\d+(-\d+)?$/.test(a.number)) problems.push(`odd house number ${a.number}`);
  return problems.concat(numberingProblems(n));
}

/**
 * Numbers rise along each street, odd on one side and even on the other. A lot's place along its street is the
 * middle of its frontage: its corners on the street's right-of-way line.
 */
function numberingProblems(n: DemoNeighbourhood): string[] {
  const problems: string[] = [];
  const parcels = new Map(n.parcels.map((p) => [p.properties.parcel_id, p]));
  for (const street of n.streets) {
    const line = street.line.coordinates.map(toMetres);
    const [start, end] = [line[0] ?? [0, 0], line.at(-1) ?? [0, 0]];
    const length = Math.hypot(end[0] - start[0], end[1] - start[1]);
    const dir = [(end[0] - start[0]) / length, (end[1] - start[1]) / length] as const;
    const placed = new Map<string, { t: number; side: number; number: number }>();
    for (const address of n.addresses.filter((a) => a.street === street.full)) {
      const ring = parcels.get(address.parcel_id)?.geometry.coordinates[0]?.slice(1).map(toMetres) ?? [];
      const front = ring.filter((p) => {
        const [x, y] = [p[0] - start[0], p[1] - start[1]];
        return Math.abs(x * dir[1] - y * dir[0]) < street.width / 2 + 0.05;
      });
      if (front.length === 0) {
        problems.push(`${address.parcel_id} has no frontage on ${street.full}`);
        continue;
      }
      const [fx, fy] = [
        front.reduce((s, p) => s + p[0], 0) / front.length,
        front.reduce((s, p) => s + p[1], 0) / front.length,
      ];
      const t = (fx - start[0]) * dir[0] + (fy - start[1]) * dir[1];
      const side = Math.sign(dir[0] * (fy - start[1]) - dir[1] * (fx - start[0]));
      placed.set(address.parcel_id, { t, side, number: Number.parseInt(address.number, 10) });
    }
    for (const parity of [0, 1]) {
      const run = [...placed.values()].filter((p) => p.number % 2 === parity).sort((a, b) => a.t - b.t);
      if (new Set(run.map((p) => p.side)).size > 1)
        problems.push(`${street.full}: ${parity ? "odd" : "even"} numbers on both sides`);
      run.forEach((p, i) => {
        const before = run[i - 1];
        if (before && before.number >= p.number) problems.push(`${street.full}: ${p.number} after ${before.number}`);
      });
    }
  }
  return problems;
}

function labelProblems(n: DemoNeighbourhood): string[] {
  const features = [...n.parcels, ...n.buildings, ...n.floodZones, ...n.fireStations, ...n.hydrants];
  return features
    .filter((f) => (f.properties as { generated?: unknown }).generated !== true)
    .map((f) => `unlabelled ${JSON.stringify(f.properties)}`);
}

/** Everything that must hold for any seed and size. */
function structuralProblems(n: DemoNeighbourhood): string[] {
  return [
    ...ringProblems([...n.parcels, ...n.buildings, ...n.floodZones]),
    ...parcelOverlapProblems(n),
    ...streetProblems(n),
    ...buildingProblems(n),
    ...addressProblems(n),
    ...labelProblems(n),
  ];
}

describe("generateNeighbourhood", () => {
  let town: DemoNeighbourhood;
  beforeAll(() => {
    town = generateNeighbourhood();
  });

  it("gives byte-identical output for a seed, and another for another seed", () => {
    const json = JSON.stringify(town);
    expect(JSON.stringify(generateNeighbourhood({ seed: DEFAULT_SEED }))).toBe(json);
    expect(JSON.stringify(generateNeighbourhood({ seed: DEFAULT_SEED + 1 }))).not.toBe(json);
    expect(JSON.stringify(generateNeighbourhood({ seed: 7, blocks: 3 }))).toBe(
      JSON.stringify(generateNeighbourhood({ seed: 7, blocks: 3 })),
    );
  });

  it("runs well within 200 ms", () => {
    const times = Array.from({ length: 3 }, () => {
      const start = performance.now();
      generateNeighbourhood({ seed: 11 });
      return performance.now() - start;
    });
    expect(Math.min(...times)).toBeLessThan(200);
  });

  it("rejects sizes and seeds it cannot use", () => {
    for (const blocks of [0, 11, 2.5, Number.NaN]) expect(() => generateNeighbourhood({ blocks })).toThrow(RangeError);
    expect(() => generateNeighbourhood({ seed: 0.5 })).toThrow(RangeError);
  });

  it("labels itself as generated, and lies in Story County, Iowa", () => {
    expect(town.dataset).toEqual(DEMO_DATASET);
    expect(town.dataset.license).toContain("not real data");
    expect(labelProblems(town)).toEqual([]);
    expect(DEMO_LOCATION).toMatchObject({ county: "Story County", stateCode: "IA", countyFips: "19169" });
    const corners = town.parcels.flatMap((p) => p.geometry.coordinates[0] ?? []).map(toMetres);
    expect(Math.max(...corners.map(([x, y]) => Math.hypot(x, y)))).toBeLessThan(1500);
    expect(new Set(town.addresses.map((a) => `${a.city}, ${a.state} ${a.postcode}`))).toEqual(
      new Set(["FAIRVIEW, IA 50201"]),
    );
  });

  it("has a plausible number of each thing", () => {
    expect(town.parcels.length).toBeGreaterThanOrEqual(300);
    expect(town.parcels.length).toBeLessThanOrEqual(500);
    expect(town.buildings.length).toBeGreaterThan(town.parcels.length);
    expect(town.streets).toHaveLength(2 * 7 + 1);
    expect(town.fireStations.length).toBeGreaterThanOrEqual(1);
    expect(town.fireStations.length).toBeLessThanOrEqual(2);
    for (const station of town.fireStations) expect(station.properties.SITE_NAME).toMatch(/FIRE STATION/);
    expect(town.hydrants.length).toBeGreaterThan(50);
    expect(town.hydrants.length).toBeLessThan(200);
    const uses = new Set(town.parcels.map((p) => p.properties.land_use));
    for (const use of ["residential", "commercial", "multifamily", "public", "park", "vacant"] as const)
      expect(uses).toContain(use);
    const kinds = new Set(town.buildings.map((b) => b.properties.kind));
    for (const kind of ["house", "garage", "shed", "commercial", "rowhouse"] as const) expect(kinds).toContain(kind);
  });

  it("names its streets the American way", () => {
    const names = town.streets.map((s) => s.full);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("N MAIN ST");
    for (const street of town.streets) {
      expect(["ST", "AVE", "RD", "LN", "CT", "PL", "BLVD"]).toContain(street.suffix);
      expect(street.full).toBe([street.directional, street.name, street.suffix].filter(Boolean).join(" "));
      expect(street.line.coordinates.length).toBeGreaterThanOrEqual(2);
    }
  });

  it("draws every parcel, building and flood zone as a valid counter-clockwise polygon", () => {
    expect(ringProblems([...town.parcels, ...town.buildings, ...town.floodZones])).toEqual([]);
  });

  it("never overlaps two parcels", () => {
    expect(parcelOverlapProblems(town)).toEqual([]);
  });

  it("keeps parcels out of the streets' rights-of-way, right up to their edge", () => {
    expect(streetProblems(town)).toEqual([]);
    // Not vacuous: most parcels reach to within half a metre of a right-of-way.
    const near = new Set(
      candidatePairs(town.parcels, corridors(town, -0.5))
        .filter(([p, c]) => booleanIntersects(p, c))
        .map(([p]) => p),
    );
    expect(near.size).toBeGreaterThan(town.parcels.length * 0.9);
  });

  it("keeps buildings inside their parcels and apart, except rowhouses, which straddle lot lines", () => {
    expect(buildingProblems(town)).toEqual([]);
    const rowhouses = [...shares(town)].filter(([b]) => b.properties.kind === "rowhouse");
    expect(rowhouses.length).toBeGreaterThanOrEqual(6);
    const straddling = rowhouses.filter(([, touched]) => touched.length >= 2 && (touched[1]?.area ?? 0) > 0.5);
    expect(straddling.length).toBeGreaterThanOrEqual(rowhouses.length - 1);
  });

  it("puts some parcels in the flood zone, partly or wholly, and most outside it", () => {
    const zones = town.floodZones;
    expect(new Set(zones.map((z) => z.properties.fld_zone))).toEqual(new Set(["AE", "X"]));
    for (const zone of zones) expect(zone.properties.sfha_tf).toBe(zone.properties.fld_zone === "AE" ? "T" : "F");
    const ae = zones.filter((z) => z.properties.fld_zone === "AE");
    const inAe = candidatePairs(town.parcels, ae)
      .map(([p, z]) => ({ p, share: overlapArea(p, z) / area(p) }))
      .filter((x) => x.share > 0);
    expect(inAe.filter((x) => x.share > 0.999).length).toBeGreaterThanOrEqual(1);
    expect(inAe.filter((x) => x.share < 0.999).length).toBeGreaterThanOrEqual(1);
    const flooded = new Set(
      candidatePairs(town.parcels, zones)
        .filter(([p, z]) => booleanIntersects(p, z))
        .map(([p]) => p),
    );
    expect(flooded.size).toBeLessThan(town.parcels.length / 2);
  });

  it("addresses every parcel once, a multi-unit building by unit, duplexes by range, numbers rising along each side", () => {
    expect(addressProblems(town)).toEqual([]);
    const units = town.addresses.filter((a) => a.unit !== undefined);
    expect(new Set(units.map((a) => a.parcel_id)).size).toBe(1);
    expect(units.length).toBeGreaterThanOrEqual(4);
    expect(town.addresses).toHaveLength(town.parcels.length + units.length - 1);
    expect(town.addresses.filter((a) => a.number.includes("-")).length).toBeGreaterThanOrEqual(2);
  });
});

describe("generateNeighbourhood, for any seed", () => {
  it("keeps its structural invariants", () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 4 }), (seed, blocks) => {
        expect(structuralProblems(generateNeighbourhood({ seed, blocks }))).toEqual([]);
      }),
      { numRuns: 20 },
    );
  });
});
