import type { Attribution, GeoJsonArea, PropertyRecord, Provenance } from "@lotline/contract";

/** One product's result in a property record: its values, `provenance` and `computed_at`. */
export type ProductData = Record<string, unknown> & { provenance?: Provenance[]; computed_at?: string };

/** The result of the product `name` in the record, or null when no order has computed it. */
export function productOf(record: PropertyRecord, name: string): ProductData | null {
  const value = record.data[name];
  return isObject(value) ? (value as ProductData) : null;
}

/** The lot's boundary: the parcel product's (drawn or imported). */
export function parcelBoundaryOf(record: PropertyRecord): GeoJsonArea | null {
  const boundary = productOf(record, "parcel")?.boundary ?? (isObject(record.parcel) ? record.parcel.boundary : null);
  return isArea(boundary) ? boundary : null;
}

/** The id of the lot's primary building, as the structures product chose it. */
export function primaryBuildingIdOf(record: PropertyRecord): number | null {
  const id = productOf(record, "structures")?.primary_building_id;
  return typeof id === "number" ? id : null;
}

/** The imported parcel dataset's attribution (a boundary the user drew names no dataset of ours). */
export function parcelAttributionOf(record: PropertyRecord): Attribution | null {
  const imported = productOf(record, "parcel")?.provenance?.find((entry) => entry.dataset !== "user drawn");
  return imported ? { dataset: imported.dataset, provider: imported.provider, license: imported.license } : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isArea(value: unknown): value is GeoJsonArea {
  return (
    isObject(value) && (value.type === "Polygon" || value.type === "MultiPolygon") && Array.isArray(value.coordinates)
  );
}
