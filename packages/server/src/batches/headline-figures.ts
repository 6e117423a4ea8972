import type { OrderBatchResult } from "@lotline/contract";

type Figures = Pick<
  OrderBatchResult,
  | "parcel_source_id"
  | "building_count"
  | "parcel_area_m2"
  | "footprint_area_m2"
  | "flood_zone"
  | "fire_station_distance_m"
  | "hydrant_distance_m"
>;

const NONE: Figures = {
  parcel_source_id: null,
  building_count: null,
  parcel_area_m2: null,
  footprint_area_m2: null,
  flood_zone: null,
  fire_station_distance_m: null,
  hydrant_distance_m: null,
};

type Loose = Record<string, unknown> | undefined;

/**
 * The figures an underwriter sorts a book by, read from a property's stored record (`{ products: … }` as
 * `process_order` stores it); null for whatever the record lacks — a product not in the matrix, a layer not imported.
 * Flood zones are the FEMA `fld_zone` of the polygon layer meeting the lot; fire stations and hydrants are the point
 * layers whose names say so.
 */
export function headlineFigures(recordJson: string | null): Figures {
  if (recordJson === null) return NONE;
  const products = (JSON.parse(recordJson) as { products?: Record<string, Loose> }).products ?? {};
  const parcel = products.parcel;
  const structures = products.structures;
  const layers = (products.third_party?.layers as Array<Record<string, unknown>> | undefined) ?? [];
  return {
    parcel_source_id: text(parcel?.source_id),
    building_count: number(structures?.count),
    parcel_area_m2: number(parcel?.area_m2),
    footprint_area_m2: number(structures?.total_area_m2),
    flood_zone: floodZone(layers),
    fire_station_distance_m: nearestDistance(layers, /fire.?station/i),
    hydrant_distance_m: nearestDistance(layers, /hydrant/i),
  };
}

function floodZone(layers: ReadonlyArray<Record<string, unknown>>): string | null {
  for (const layer of layers) {
    if (layer.geometry_kind !== "polygon") continue;
    const features =
      (layer.features as Array<{ attributes?: Record<string, unknown>; overlap_m2?: number | null }>) ?? [];
    const zoned = features
      .map((feature) => ({ zone: zoneOf(feature.attributes ?? {}), overlap: feature.overlap_m2 ?? 0 }))
      .filter((feature): feature is { zone: string; overlap: number } => feature.zone !== null)
      .sort((a, b) => b.overlap - a.overlap);
    if (zoned[0]) return zoned[0].zone;
  }
  return null;
}

function zoneOf(attributes: Record<string, unknown>): string | null {
  const key = Object.keys(attributes).find((name) => name.toLowerCase() === "fld_zone");
  return key === undefined ? null : text(attributes[key]);
}

function nearestDistance(layers: ReadonlyArray<Record<string, unknown>>, name: RegExp): number | null {
  for (const layer of layers) {
    if (layer.geometry_kind !== "point" || typeof layer.dataset !== "string" || !name.test(layer.dataset)) continue;
    const nearest = layer.nearest as { distance_m?: unknown } | null | undefined;
    return number(nearest?.distance_m);
  }
  return null;
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function number(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
