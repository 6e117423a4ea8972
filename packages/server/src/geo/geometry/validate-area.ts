import {
  type AreaInvalid,
  type AreaRepair,
  type AreaValidation,
  CLOSED_RING,
  DROPPED_DUPLICATE_POSITIONS,
  DROPPED_ELEVATION,
  DROPPED_EMPTY_HOLE,
  DROPPED_EMPTY_POLYGON,
  EMPTY,
  HOLE_OUTSIDE_SHELL,
  invalid,
  MOVED_HOLE,
  NOT_SIMPLE,
  RENODED,
  REWOUND,
  TOO_FEW_POSITIONS,
  UNREPAIRABLE,
  UNWRAPPED_MULTIPOLYGON,
  ZERO_AREA,
} from "./area-validation.js";
import { cleanRing, isFlat } from "./clean-ring.js";
import { type Crossing, findCrossing } from "./find-crossing.js";
import { type NestingProblem, nestingProblem } from "./nesting-problem.js";
import { placeHoles } from "./place-holes.js";
import { planarRingArea } from "./planar-ring.js";
import { type Pair, readPolygons } from "./read-polygons.js";
import { renode } from "./renode.js";

/** A polygon being validated, with the input's numbering of it and of its rings for messages. */
interface Numbered {
  polygon: number;
  rings: Pair[][];
  ringNumbers: number[];
}

/** How {@link validateArea} treats rings that cross, touch or overlap, or lie where they must not. */
export interface ValidateAreaOptions {
  /**
   * Re-node them into a valid geometry (the default; polygon-clipping, which can take seconds on a large
   * self-crossing ring, so only for trusted input off the request path), or refuse them as `NOT_SIMPLE`.
   */
  renode?: boolean;
}

/**
 * Checks an untrusted GeoJSON geometry as an {@link Area}, repairs what can be repaired without guessing, and
 * lists the repairs (codes in `area-validation.ts`, each once, in the order they ran); rejects the rest with a
 * reason code and a sentence naming the ring or position at fault. Never throws.
 *
 * In order:
 * 1. Polygon or MultiPolygon only (`NOT_POLYGONAL`); positions finite, longitude in [-180, 180], latitude in
 *    [-90, 90] (`BAD_COORDINATES`); elevations are dropped.
 * 2. Each ring is closed if open and rid of positions repeating the one before; an exterior ring with fewer than
 *    3 distinct positions is rejected (`TOO_FEW_POSITIONS`), unless it is one piece of a MultiPolygon, which is
 *    then dropped like a flat one. A hole with fewer than 3, or whose positions lie on
 *    one line, has zero area and is dropped; so is such a polygon of a MultiPolygon, while others stand (`ZERO_AREA` when
 *    none does).
 * 3. Rings are rewound to RFC 7946: exteriors counter-clockwise, holes clockwise.
 * 4. A sweep (`findCrossing`, O(n log n)) finds whether rings cross, touch or overlap, and if none does, one
 *    point-in-ring test per pair of rings whether each lies where it must (`nestingProblem`). Nothing wrong, the
 *    common case: the geometry is valid as it is, and no polygon operation runs.
 * 5. Otherwise, with `renode: false`, refused: `NOT_SIMPLE`, or `HOLE_OUTSIDE_SHELL` and `EMPTY` as below.
 * 6. Otherwise a hole wholly outside its exterior moves to the polygon that holds it; none does: `HOLE_OUTSIDE_SHELL`.
 * 7. The geometry is united with itself (polygon-clipping): self-crossing rings (a bow-tie becomes two
 *    triangles), overlapping or edge-sharing polygons, holes crossing their exterior or each other are re-noded
 *    into a valid geometry. A geometry that the union leaves as it is (polygons touching at a point) comes back
 *    as it went in. Nothing left: `ZERO_AREA` (retraced rings) or `EMPTY` (holes covering their exteriors).
 * 8. A single polygon comes back as a Polygon, several as a MultiPolygon.
 *
 * @example
 * validateArea({ type: "Polygon", coordinates: [[[0, 0], [0, 1], [1, 1], [1, 0]]] });
 * //= { valid: true, geometry: { type: "Polygon", coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]] },
 * //    repairs: ["CLOSED_RING", "REWOUND"] }
 */
export function validateArea(
  geometry: unknown,
  { renode: mayRenode = true }: ValidateAreaOptions = {},
): AreaValidation {
  const read = readPolygons(geometry);
  if ("valid" in read) return read;
  const name = (polygon: number, ring: number) =>
    read.type === "Polygon" ? `ring ${ring + 1}` : `polygon ${polygon + 1}, ring ${ring + 1}`;
  if (read.polygons.every((rings) => rings.length === 0)) return invalid(EMPTY, "the geometry has no rings");
  const repairs = new Set<AreaRepair>();
  if (read.droppedElevation) repairs.add(DROPPED_ELEVATION);

  const polygons: Numbered[] = [];
  for (const [p, ringsIn] of read.polygons.entries()) {
    const numbered: Numbered = { polygon: p, rings: [], ringNumbers: [] };
    for (const [r, ringIn] of ringsIn.entries()) {
      const clean = cleanRing(ringIn);
      if (clean.closed) repairs.add(CLOSED_RING);
      if (clean.droppedDuplicates) repairs.add(DROPPED_DUPLICATE_POSITIONS);
      // A hole of one or two positions, or on one line, encloses nothing: it is dropped, not a reason to refuse.
      if (r > 0 && (clean.distinct < 3 || isFlat(clean.ring))) {
        repairs.add(DROPPED_EMPTY_HOLE);
        continue;
      }
      if (clean.distinct < 3) {
        // One piece of a MultiPolygon reduced to a point or a line is dropped while other pieces stand.
        if (read.polygons.length > 1) break;
        return invalid(TOO_FEW_POSITIONS, `${name(p, r)} has ${clean.distinct} distinct positions; a ring needs 3`);
      }
      numbered.rings.push(rewind(clean.ring, r === 0, repairs));
      numbered.ringNumbers.push(r);
    }
    const [exterior] = numbered.rings;
    if (exterior !== undefined && !isFlat(exterior)) polygons.push(numbered);
  }
  if (polygons.length === 0) {
    const what = read.type === "Polygon" ? "the exterior ring lies" : "every exterior ring lies";
    return invalid(ZERO_AREA, `${what} on one line`);
  }
  if (polygons.length < read.polygons.length) repairs.add(DROPPED_EMPTY_POLYGON);

  const rings = polygons.map((numbered) => numbered.rings);
  // A single polygon's rings as they are: `flat` cost more than validating a footprint's rings.
  const crossing = findCrossing(rings.length === 1 ? (rings[0] ?? []) : rings.flat());
  const misplaced = crossing ? undefined : nestingProblem(rings);
  if (!crossing && !misplaced) return areaOf(rings, read.type, repairs);
  const ringName = (p: number, r: number) => {
    const numbered = polygons[p];
    return name(numbered?.polygon ?? 0, numbered?.ringNumbers[r] ?? 0);
  };
  if (!mayRenode) return refusal(crossing, misplaced, rings, ringName);

  const placed = placeHoles(polygons.map(({ rings }) => rings));
  if ("stray" in placed) {
    const { polygon, ringNumbers } = polygons[placed.stray.polygon] ?? { polygon: 0, ringNumbers: [] };
    const elsewhere = polygons.length > 1 ? ", and inside no other polygon" : "";
    const ring = name(polygon, ringNumbers[placed.stray.ring] ?? 0);
    return invalid(HOLE_OUTSIDE_SHELL, `${ring} is a hole outside its exterior ring${elsewhere}`);
  }
  if (placed.moved) repairs.add(MOVED_HOLE);

  const renoded = renode(placed.polygons);
  if ("error" in renoded) return invalid(UNREPAIRABLE, `re-noding failed: ${renoded.error}`);
  if (renoded.changed) repairs.add(RENODED);
  const [first, ...others] = renoded.polygons;
  if (first === undefined) {
    const exteriors = renode(placed.polygons.map(([exterior = []]) => [exterior]));
    return "polygons" in exteriors && exteriors.polygons.length === 0
      ? invalid(ZERO_AREA, "the rings enclose no area")
      : invalid(EMPTY, "the holes cover the whole of their exteriors");
  }
  return areaOf([first, ...others], read.type, repairs);
}

/** A single polygon as a Polygon, several as a MultiPolygon. */
function areaOf(
  [first = [], ...others]: Pair[][][],
  type: "Polygon" | "MultiPolygon",
  repairs: Set<AreaRepair>,
): AreaValidation {
  if (others.length > 0) {
    return { valid: true, geometry: { type: "MultiPolygon", coordinates: [first, ...others] }, repairs: [...repairs] };
  }
  if (type === "MultiPolygon") repairs.add(UNWRAPPED_MULTIPOLYGON);
  return { valid: true, geometry: { type: "Polygon", coordinates: first }, repairs: [...repairs] };
}

/** The polygon and ring (0-based) of the `index`th ring of all the polygons' rings in turn. */
function flatRing(polygons: readonly Pair[][][], index: number): { polygon: number; ring: number } | undefined {
  let skipped = 0;
  for (const [polygon, rings] of polygons.entries()) {
    if (index < skipped + rings.length) return { polygon, ring: index - skipped };
    skipped += rings.length;
  }
  return undefined;
}

/** Why a geometry that is not valid as it is gets refused, when re-noding was not asked for. */
function refusal(
  crossing: Crossing | undefined,
  misplaced: NestingProblem | undefined,
  polygons: Pair[][][],
  ringName: (polygon: number, ring: number) => string,
): AreaInvalid {
  if (misplaced) return misplacedRing(misplaced, polygons, ringName);
  const [a, b] = crossing ? [flatRing(polygons, crossing.ring), flatRing(polygons, crossing.other)] : [];
  if (!a || !b) return invalid(NOT_SIMPLE, "rings cross or touch");
  const [first, second] = [ringName(a.polygon, a.ring), ringName(b.polygon, b.ring)];
  return invalid(
    NOT_SIMPLE,
    first === second ? `${first} crosses or touches itself` : `${first} and ${second} cross or touch`,
  );
}

/** The refusal of a ring that lies where it must not, when re-noding was not asked for. */
function misplacedRing(
  { kind, polygon, ring }: NestingProblem,
  polygons: Pair[][][],
  ringName: (polygon: number, ring: number) => string,
): AreaInvalid {
  const named = ringName(polygon, ring);
  if (kind === "covering_hole") return invalid(EMPTY, "the holes cover the whole of their exteriors");
  if (kind === "overlap") {
    return invalid(
      NOT_SIMPLE,
      ring > 0 ? `${named} is a hole inside another hole` : `${named} overlaps another polygon`,
    );
  }
  const placed = placeHoles(polygons);
  if ("stray" in placed) {
    const elsewhere = polygons.length > 1 ? ", and inside no other polygon" : "";
    const stray = ringName(placed.stray.polygon, placed.stray.ring);
    return invalid(HOLE_OUTSIDE_SHELL, `${stray} is a hole outside its exterior ring${elsewhere}`);
  }
  return invalid(NOT_SIMPLE, `${named} is a hole outside its exterior ring, inside another polygon`);
}

/** The ring turned, if need be, to run counter-clockwise (an exterior) or clockwise (a hole). */
function rewind(ring: Pair[], exterior: boolean, repairs: Set<AreaRepair>): Pair[] {
  const area = planarRingArea(ring);
  if (exterior ? area >= 0 : area <= 0) return ring;
  repairs.add(REWOUND);
  return ring.slice().reverse();
}
