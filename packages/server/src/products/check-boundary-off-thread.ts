import { BusyError } from "../compute/busy-error.js";
import { GEOMETRY_BUDGET_MS, runGeometryTask } from "../compute/geometry-pool.js";
import { PoolBusyError } from "../compute/pool-busy-error.js";
import { TaskTimeoutError } from "../compute/task-timeout-error.js";
import { InvalidInputError } from "../errors.js";
import { exceededGeometryLimit } from "../geo/geometry/index.js";
import { packPolygons } from "../geo/geometry/packed-polygons.js";
import type { BoundaryVerdict } from "./boundary-verdict.js";

/** A geometry beyond `GEOMETRY_LIMITS` (422), refused before any geometry work. */
export const GEOMETRY_LIMIT_EXCEEDED = "geometry_limit_exceeded";
/** A geometry whose check ran over its time budget (422): simplify it. */
export const GEOMETRY_TOO_COMPLEX = "geometry_too_complex";
/** Every geometry worker is busy and the queue is full (503 with `Retry-After`). */
export const GEOMETRY_BUSY = "geometry_busy";

/**
 * {@link checkBoundary} for a request: the limits counted here, the check itself on a geometry worker thread
 * (`compute/`), so that no boundary, however crafted, holds up the event loop. `field` names the boundary in
 * errors. Throws `InvalidInputError` (`geometry_limit_exceeded`, `geometry_too_complex`) or `BusyError`
 * (`geometry_busy`); an invalid boundary is an answer, not an error. `run` hands the check to a worker: the
 * process's pool, or in tests one that fails as they choose.
 */
export async function checkBoundaryOffThread(
  boundary: unknown,
  field: string,
  run: typeof runGeometryTask = runGeometryTask,
): Promise<BoundaryVerdict> {
  const beyondLimits = exceededGeometryLimit(boundary);
  if (beyondLimits) throw new InvalidInputError(GEOMETRY_LIMIT_EXCEEDED, `${field}: ${beyondLimits}`);
  try {
    const packed = packPolygons(boundary);
    return await (packed ? run("packedBoundaryVerdict", packed) : run("boundaryVerdict", boundary));
  } catch (error) {
    if (error instanceof TaskTimeoutError) {
      throw new InvalidInputError(
        GEOMETRY_TOO_COMPLEX,
        `${field}: checking it took more than ${GEOMETRY_BUDGET_MS / 1000} s; simplify the boundary`,
      );
    }
    if (error instanceof PoolBusyError) {
      throw new BusyError(GEOMETRY_BUSY, "too many boundaries are being checked at once; retry in a second");
    }
    throw error;
  }
}
