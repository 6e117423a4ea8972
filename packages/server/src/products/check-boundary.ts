import { exceededGeometryLimit, geodesicArea, NOT_SIMPLE, validateArea } from "../geo/geometry/index.js";
import type { Area } from "../geo/types.js";
import {
  BOUNDARY_INVALID,
  BOUNDARY_SELF_INTERSECTING,
  BOUNDARY_TOO_LARGE,
  BOUNDARY_TOO_SMALL,
  type FailureReason,
  MAX_BOUNDARY_M2,
  MIN_BOUNDARY_M2,
} from "./failure-reasons.js";

/**
 * Checks a boundary the user drew, as it comes in an order: within the geometry limits (`GEOMETRY_LIMITS`,
 * counted before anything else), a valid area (see `validateArea`) of {@link MIN_BOUNDARY_M2} to
 * {@link MAX_BOUNDARY_M2}, answered as the tidied area, or the failure reason and a sentence. Tidying is fine
 * (closing the ring, rewinding it, dropping repeated positions or elevations); a ring that crosses or touches
 * itself, or a hole that crosses its ring or strays into another polygon, is refused: reading a bow-tie as two
 * triangles would be guessing what the user meant. So nothing is ever re-noded, and the check costs
 * O(n log n) whatever the boundary (a sweep finds the first crossing). Never throws.
 *
 * @example
 * checkBoundary(bowTie); //= { reason: "boundary_self_intersecting", detail: "ring 1 crosses or touches itself" }
 * checkBoundary(lot); //= { type: "Polygon", coordinates: […] }
 */
export function checkBoundary(boundary: unknown): Area | { reason: FailureReason; detail: string } {
  const beyondLimits = exceededGeometryLimit(boundary);
  if (beyondLimits) return { reason: BOUNDARY_INVALID, detail: beyondLimits };
  const validation = validateArea(boundary, { renode: false });
  if (!validation.valid) {
    if (validation.reason === NOT_SIMPLE) return { reason: BOUNDARY_SELF_INTERSECTING, detail: validation.detail };
    return { reason: BOUNDARY_INVALID, detail: `${validation.reason}: ${validation.detail}` };
  }
  const area = geodesicArea(validation.geometry);
  if (area < MIN_BOUNDARY_M2) {
    return {
      reason: BOUNDARY_TOO_SMALL,
      detail: `the boundary encloses ${area.toFixed(2)} m²; at least ${MIN_BOUNDARY_M2} m² is needed`,
    };
  }
  if (area > MAX_BOUNDARY_M2) {
    return {
      reason: BOUNDARY_TOO_LARGE,
      detail: `the boundary encloses ${Math.round(area)} m²; at most ${MAX_BOUNDARY_M2} m² is accepted`,
    };
  }
  return validation.geometry;
}
