import { geodesicArea } from "../geo/geometry/index.js";
import { type PackedPolygons, unpackPolygons } from "../geo/geometry/packed-polygons.js";
import { checkBoundary } from "./check-boundary.js";
import type { FailureReason } from "./failure-reasons.js";

/** {@link checkBoundary}'s answer reduced to what crosses a thread: the area, or the failure reason and a sentence. */
export type BoundaryVerdict = { valid: true; areaM2: number } | { valid: false; reason: FailureReason; detail: string };

/** {@link checkBoundary} as a geometry worker's task (see `compute/`). Never throws. */
export function boundaryVerdict(boundary: unknown): BoundaryVerdict {
  const checked = checkBoundary(boundary);
  return "reason" in checked ? { valid: false, ...checked } : { valid: true, areaM2: geodesicArea(checked) };
}

/** {@link boundaryVerdict} of a boundary packed for the crossing to a worker (see `packPolygons`). */
export function packedBoundaryVerdict(packed: PackedPolygons): BoundaryVerdict {
  return boundaryVerdict(unpackPolygons(packed));
}
