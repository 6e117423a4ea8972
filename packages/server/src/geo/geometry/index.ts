/**
 * Pure geometry on WGS 84 longitude/latitude: validation and repair of polygons, ellipsoidal areas and distances,
 * exact predicates to run after a bounding-box prefilter. No database, no I/O.
 */
export * from "./area-validation.js";
export { bboxOf } from "./bbox-of.js";
export { containsPoint } from "./contains-point.js";
export { distanceBetweenAreas } from "./distance-between-areas.js";
export { distanceToGeometry } from "./distance-to-geometry.js";
export { expandBBox } from "./expand-bbox.js";
export { geodesicArea } from "./geodesic-area.js";
export { geodesicDistance } from "./geodesic-distance.js";
export { geodesicPerimeter } from "./geodesic-perimeter.js";
export { exceededGeometryLimit, GEOMETRY_LIMITS, type GeometryLimits } from "./geometry-limits.js";
export { intersectionArea } from "./intersection-area.js";
export { intersects } from "./intersects.js";
export { largestShare } from "./largest-share.js";
export { representativePoint } from "./representative-point.js";
export { SQUARE_FEET_PER_SQUARE_METRE, toSquareFeet } from "./square-feet.js";
export { type ValidateAreaOptions, validateArea } from "./validate-area.js";
