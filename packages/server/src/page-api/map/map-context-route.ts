import { MapContext, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { parseDecimal } from "../../api/strict-input/parse-parameters.js";
import { MAP_CONTEXT_MAX_SPAN_DEG, mapContext } from "../../geo/lots/map-context.js";
import type { BBox } from "../../geo/types.js";
import { HttpProblem } from "../../http/problem.js";
import type { Services } from "../../services.js";

const MapContextQuery = Type.Object({
  bbox: Type.String({ minLength: 1, maxLength: 200, description: "west,south,east,north in WGS 84 degrees." }),
});

/** `GET /embed/api/map/context?bbox=`: neighbouring parcels, buildings and layers, the map's base. */
export function registerMapContextRoute(api: FastifyInstance, { database }: Services): void {
  api.get<{ Querystring: { bbox: string } }>(
    "/map/context",
    {
      schema: {
        hide: true,
        summary: "The service's own data in a box: parcels, buildings, polygon layers and their attributions",
        querystring: MapContextQuery,
        response: { 200: MapContext, "4xx": Problem },
      },
    },
    async (request) => mapContext(database, parseBBox(request.query.bbox)),
  );
}

/**
 * `west,south,east,north` as a box: four finite numbers, west < east and south < north, within ±180° and ±90°
 * (`invalid_bbox`), spanning at most {@link MAP_CONTEXT_MAX_SPAN_DEG} each way (`bbox_too_large`).
 */
function parseBBox(text: string): BBox {
  const parts = text.split(",");
  // Decimals only, as parameters elsewhere: no `0x10`, `Infinity` or blank standing for a number.
  const numbers = parts.map((part) => parseDecimal(part.trim()) ?? Number.NaN);
  const [west = Number.NaN, south = Number.NaN, east = Number.NaN, north = Number.NaN] = numbers;
  const valid =
    parts.length === 4 &&
    numbers.every(Number.isFinite) &&
    west >= -180 &&
    east <= 180 &&
    south >= -90 &&
    north <= 90 &&
    west < east &&
    south < north;
  if (!valid) {
    throw new HttpProblem(
      400,
      "invalid_bbox",
      "Bad Request",
      "bbox is west,south,east,north: four numbers in degrees, west < east and south < north",
    );
  }
  // A hair of slack: -93.40 to -93.35 spans 0.05000000000000426 in floating point, and that is 0.05°.
  const widest = MAP_CONTEXT_MAX_SPAN_DEG + 1e-9;
  if (east - west > widest || north - south > widest) {
    throw new HttpProblem(
      400,
      "bbox_too_large",
      "Bad Request",
      `bbox may span at most ${MAP_CONTEXT_MAX_SPAN_DEG}° of longitude and of latitude`,
    );
  }
  return [west, south, east, north];
}
