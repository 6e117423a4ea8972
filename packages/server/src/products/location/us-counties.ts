import { feature } from "topojson-client";
import type { GeometryCollection } from "topojson-specification";
import { bboxOf, containsPoint } from "../../geo/geometry/index.js";
import type { Area, BBox, LonLat } from "../../geo/types.js";
import { lazily, readAtlas } from "./atlas-file.js";
import { countyName } from "./county-names.js";
import { USPS_CODES } from "./state-codes.js";

export interface CountyAndState {
  county: { fips: string; name: string };
  state: { fips: string; name: string; code: string | null };
}

interface County {
  fips: string;
  name: string;
  area: Area;
  bbox: BBox;
}

/**
 * us-atlas's counties-10m.json, converted once: the counties with their bounding boxes, and the state names. The
 * states come from the same file, where they are the merged counties, so a county and its state never disagree.
 */
const counties = lazily(async () => {
  const topology = await readAtlas("us-atlas/counties-10m.json");
  const read = (name: string) =>
    feature(topology, topology.objects[name] as GeometryCollection<{ name: string }>).features;
  const list = read("counties").flatMap((county): County[] => {
    const geometry = county.geometry as Area | null;
    if (!geometry || county.id === undefined) return [];
    const fips = String(county.id);
    return [{ fips, name: countyName(fips, county.properties.name), area: geometry, bbox: bboxOf(geometry) }];
  });
  list.sort((a, b) => (a.fips < b.fips ? -1 : 1));
  const states = new Map(read("states").map((state) => [String(state.id), state.properties.name]));
  return { list, states };
});

/**
 * The county (or equivalent) and state holding `point`, from the Census Bureau's cartographic boundaries (2017)
 * as us-atlas simplifies and quantizes them: near a county line (within some 100 m) the answer may be the
 * neighbour. Undefined offshore and outside the United States. A point on a line between two counties gets the
 * one with the lower FIPS code.
 *
 * @example
 * await countyAt([-93.38, 41.96]); //= { county: { fips: "19169", name: "Story County" }, state: { fips: "19", name: "Iowa", code: "IA" } }
 */
export async function countyAt(point: LonLat): Promise<CountyAndState | undefined> {
  const { list, states } = await counties();
  const [lon, lat] = point;
  const county = list.find(
    ({ bbox, area }) =>
      lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3] && containsPoint(area, point),
  );
  if (!county) return undefined;
  const stateFips = county.fips.slice(0, 2);
  return {
    county: { fips: county.fips, name: county.name },
    state: { fips: stateFips, name: states.get(stateFips) ?? stateFips, code: USPS_CODES[stateFips] ?? null },
  };
}
