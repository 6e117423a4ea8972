import type { LineString } from "geojson";
import type { Feature, Point, Polygon } from "../types.js";
import type { BuildingKind } from "./buildings.js";
import type { FloodZoneProperties } from "./creek.js";
import type { FireStationProperties, HydrantProperties } from "./fire-protection.js";
import type { LandUse } from "./land-use.js";
import type { StreetSuffix } from "./street-plan.js";

export type { BuildingKind, FireStationProperties, FloodZoneProperties, HydrantProperties, LandUse, StreetSuffix };

/** Who made the data and on what terms; shown wherever the data is, so nobody takes it for a real place. */
export interface DemoDataset {
  name: "Lotline generated demo neighbourhood";
  provider: "Lotline (generated)";
  license: "CC0-1.0 — generated, not real data";
  vintage: "generated";
}

export const DEMO_DATASET: DemoDataset = {
  name: "Lotline generated demo neighbourhood",
  provider: "Lotline (generated)",
  license: "CC0-1.0 — generated, not real data",
  vintage: "generated",
};

export interface ParcelProperties {
  /** `DEMO-0001`, … in plat order: blocks south-west to north-east, each block's rows west then east. */
  parcel_id: string;
  land_use: LandUse;
  generated: true;
}

export interface BuildingProperties {
  /** `DEMO-B0001`, …; like real footprint data, a building names no parcel: find it by largest overlap. */
  building_id: string;
  kind: BuildingKind;
  generated: true;
}

export interface DemoStreet {
  /** `MAIN`; with `directional` and `suffix`, `N MAIN ST`. */
  name: string;
  directional?: "N";
  suffix: StreetSuffix;
  /** As addresses write it. */
  full: string;
  /** Right-of-way width in metres; no parcel comes within half of it of the centreline. */
  width: number;
  /** The centreline, with a vertex at each crossing. */
  line: LineString;
}

export interface DemoAddress {
  parcel_id: string;
  /** `12`, or a range `12-14` for a duplex. */
  number: string;
  /** `MAPLE AVE`, `N MAIN ST`. */
  street: string;
  unit?: string;
  city: string;
  state: string;
  postcode: string;
}

export interface DemoNeighbourhood {
  dataset: DemoDataset;
  parcels: Feature<Polygon, ParcelProperties>[];
  buildings: Feature<Polygon, BuildingProperties>[];
  streets: DemoStreet[];
  /** One per parcel, several (one per unit) for the multi-unit building. */
  addresses: DemoAddress[];
  floodZones: Feature<Polygon, FloodZoneProperties>[];
  fireStations: Feature<Point, FireStationProperties>[];
  hydrants: Feature<Point, HydrantProperties>[];
}
