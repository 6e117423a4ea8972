import { boundaryVerdict, packedBoundaryVerdict } from "../products/boundary-verdict.js";

/** What the geometry workers can run, by name: synchronous functions of a structured-cloneable input. */
export const GEOMETRY_TASKS = {
  boundaryVerdict,
  packedBoundaryVerdict,
} satisfies Record<string, (input: never) => unknown>;

export type GeometryTaskName = keyof typeof GEOMETRY_TASKS;
