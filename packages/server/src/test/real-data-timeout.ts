/**
 * How long a test comparing answers over the real Cambridge data may run, ms: thousands of exact computations
 * (GeographicLib's geodesics, polygon clipping) that take seconds alone and took over 30 s on a loaded two-core
 * machine. Such a test checks answers, not speed (`npm run bench:geo` measures that).
 */
export const REAL_DATA_TIMEOUT_MS = 180_000;
