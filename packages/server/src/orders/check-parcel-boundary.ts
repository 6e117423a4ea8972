import { InvalidInputError } from "../errors.js";
import { checkBoundaryOffThread } from "../products/check-boundary-off-thread.js";

/**
 * Refuses an order's drawn boundary at placement, as its processing would fail it: a `422` whose code is the
 * failure reason (`boundary_invalid`, `boundary_self_intersecting`, `boundary_too_small`, `boundary_too_large`)
 * and whose detail names the field, instead of a `202` and a failed order. No boundary, nothing to check.
 */
export async function checkParcelBoundary(boundary: unknown): Promise<void> {
  if (boundary === undefined) return;
  const verdict = await checkBoundaryOffThread(boundary, "parcel_boundary");
  if (!verdict.valid) throw new InvalidInputError(verdict.reason, `parcel_boundary: ${verdict.detail}`);
}
