import type { Selectable } from "kysely";
import type { BuildingTable, LayerFeatureTable, ParcelTable } from "../../db/schema.js";
import type { Area, Geometry } from "../types.js";
import type { Shape } from "./parsed-shapes.js";

/** A parcel as the domain sees it: geometry and attributes parsed. */
export interface Parcel {
  parcelId: number;
  datasetId: number;
  sourceId: string;
  boundary: Area;
  attributes: Record<string, unknown>;
  areaM2: number;
}

export interface Building {
  buildingId: number;
  datasetId: number;
  sourceId: string;
  footprint: Area;
  attributes: Record<string, unknown>;
  areaM2: number;
  parcelId: number | null;
  parcelShare: number | null;
}

export interface LayerFeature {
  featureId: number;
  datasetId: number;
  sourceId: string;
  geometry: Geometry;
  attributes: Record<string, unknown>;
}

/** The columns of a spatial row other than its geometry and attributes: cheap to read for every candidate. */
export const PLAIN_COLUMNS = {
  parcels: ["parcel_id", "dataset_id", "source_id", "area_m2", "import_id"],
  buildings: ["building_id", "dataset_id", "source_id", "area_m2", "parcel_id", "parcel_share", "import_id"],
  layer_features: ["feature_id", "dataset_id", "source_id", "import_id", "part_count"],
} as const;

type PlainParcel = Pick<Selectable<ParcelTable>, (typeof PLAIN_COLUMNS.parcels)[number]>;
export type PlainBuilding = Pick<Selectable<BuildingTable>, (typeof PLAIN_COLUMNS.buildings)[number]>;
type PlainLayerFeature = Pick<Selectable<LayerFeatureTable>, (typeof PLAIN_COLUMNS.layer_features)[number]>;

export const parcelOf = (row: PlainParcel, shape: Shape): Parcel => ({
  parcelId: row.parcel_id,
  datasetId: row.dataset_id,
  sourceId: row.source_id,
  boundary: shape.geometry as Area,
  get attributes() {
    return shape.attributes;
  },
  areaM2: row.area_m2,
});

export const buildingOf = (row: PlainBuilding, shape: Shape): Building => ({
  buildingId: row.building_id,
  datasetId: row.dataset_id,
  sourceId: row.source_id,
  footprint: shape.geometry as Area,
  get attributes() {
    return shape.attributes;
  },
  areaM2: row.area_m2,
  parcelId: row.parcel_id,
  parcelShare: row.parcel_share,
});

export const layerFeatureOf = (row: PlainLayerFeature, shape: Shape): LayerFeature => ({
  featureId: row.feature_id,
  datasetId: row.dataset_id,
  sourceId: row.source_id,
  geometry: shape.geometry,
  get attributes() {
    return shape.attributes;
  },
});
