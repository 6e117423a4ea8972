import type { BBox } from "../types.js";

/** Whether two bounding boxes share at least one point (touching counts). */
export function bboxesMeet(a: BBox, b: BBox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}
