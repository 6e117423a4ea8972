import { feature } from "topojson-client";
import type { SourceRecord } from "../types.js";
import { reprojectionFrom } from "./crs.js";
import { featureRecord } from "./feature-record.js";
import { isJsonObject, messageOf, preview } from "./json-value.js";
import type { ReadOptions } from "./read-options.js";
import { SourceError } from "./source-error.js";

type Topology = Parameters<typeof feature>[0];
type GeometryObject = Parameters<typeof feature>[1];

/**
 * The features of a parsed TopoJSON topology: every geometry of every object in turn (or of `options.object` only),
 * converted by topojson-client, which decodes quantized arcs. The number counts across the whole topology. A
 * geometry whose arcs cannot be decoded is an error record; a geometry of type null is a feature without geometry.
 * `label` names the file in error messages.
 */
export function* topologyRecords(
  topology: unknown,
  options: ReadOptions,
  label: string,
): Generator<SourceRecord, void, undefined> {
  if (!isJsonObject(topology) || topology.type !== "Topology" || !isJsonObject(topology.objects)) {
    throw new SourceError("unreadable_source", `${label}: not TopoJSON: expected a Topology with objects`);
  }
  const { objects } = topology;
  const names = Object.keys(objects);
  if (options.object !== undefined && !Object.hasOwn(objects, options.object)) {
    throw new SourceError(
      "unknown_object",
      `${label} has no object "${options.object}"; its objects are ${names.map((name) => `"${name}"`).join(", ")}`,
    );
  }
  const reprojection = options.crs === undefined ? null : reprojectionFrom(options.crs, "--crs");
  let number = 0;
  for (const name of options.object === undefined ? names : [options.object]) {
    const object = objects[name];
    const geometries =
      isJsonObject(object) && object.type === "GeometryCollection" && Array.isArray(object.geometries)
        ? (object.geometries as unknown[])
        : [object];
    for (const geometry of geometries) {
      number += 1;
      if (!isJsonObject(geometry)) {
        yield { number, error: `expected a TopoJSON geometry object, found ${preview(geometry)}` };
        continue;
      }
      let converted: unknown;
      try {
        converted = toFeature(topology as unknown as Topology, geometry);
      } catch (thrown) {
        yield { number, error: `cannot decode the TopoJSON geometry: ${messageOf(thrown)}` };
        continue;
      }
      yield featureRecord(number, converted, reprojection, false);
    }
  }
}

/** One TopoJSON geometry as a GeoJSON Feature; a nested GeometryCollection becomes one GeoJSON GeometryCollection. */
function toFeature(topology: Topology, geometry: Record<string, unknown>): unknown {
  const converted = feature(topology, geometry as unknown as GeometryObject);
  if (converted.type === "Feature") return converted;
  return {
    type: "Feature",
    ...(geometry.id === undefined ? {} : { id: geometry.id }),
    properties: geometry.properties ?? {},
    geometry: { type: "GeometryCollection", geometries: converted.features.map((member) => member.geometry) },
  };
}
