import type { Selectable } from "kysely";
import type { AddressTable, BuildingTable, LayerFeatureTable, ParcelTable } from "../../db/schema.js";
import type { Area, Geometry } from "../types.js";
import { buildingFootprints, layerGeometries, parcelBoundaries } from "./parsed-geometries.js";

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

export interface StoredAddress {
  addressId: number;
  datasetId: number;
  display: string;
  normalized: Record<string, unknown>;
  parcelId: number | null;
  lon: number;
  lat: number;
}

export const toParcel = (row: Selectable<ParcelTable>): Parcel => ({
  parcelId: row.parcel_id,
  datasetId: row.dataset_id,
  sourceId: row.source_id,
  boundary: parcelBoundaries.parse(row.parcel_id, row.import_id, row.boundary) as Area,
  attributes: JSON.parse(row.attributes),
  areaM2: row.area_m2,
});

export const toBuilding = (row: Selectable<BuildingTable>): Building => ({
  buildingId: row.building_id,
  datasetId: row.dataset_id,
  sourceId: row.source_id,
  footprint: buildingFootprints.parse(row.building_id, row.import_id, row.footprint) as Area,
  attributes: JSON.parse(row.attributes),
  areaM2: row.area_m2,
  parcelId: row.parcel_id,
  parcelShare: row.parcel_share,
});

export const toLayerFeature = (row: Selectable<LayerFeatureTable>): LayerFeature => ({
  featureId: row.feature_id,
  datasetId: row.dataset_id,
  sourceId: row.source_id,
  geometry: layerGeometries.parse(row.feature_id, row.import_id, row.geometry),
  attributes: JSON.parse(row.attributes),
});

export const toStoredAddress = (row: Selectable<AddressTable>): StoredAddress => ({
  addressId: row.address_id,
  datasetId: row.dataset_id,
  display: row.display,
  normalized: JSON.parse(row.normalized),
  parcelId: row.parcel_id,
  lon: row.lon,
  lat: row.lat,
});
