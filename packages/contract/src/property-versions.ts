import { type Static, Type } from "typebox";
import { PropertyBuilding, Provenance } from "./properties.js";

/** A dataset that went into a version of a property's record, with its vintage. */
export const VersionDataset = Type.Omit(Provenance, ["note"]);
export type VersionDataset = Static<typeof VersionDataset>;

const versionFields = {
  version: Type.Integer({ minimum: 1 }),
  created_at: Type.String({ format: "date-time" }),
  cause: Type.Union([Type.Literal("order"), Type.Literal("data_change")], {
    description: "What made the version: an order completing, or imported data changing under the property.",
  }),
  datasets: Type.Array(VersionDataset),
};

/** One version of a property's computed record, newest first in `GET /v1/properties/{property_id}/versions`. */
export const PropertyVersionSummary = Type.Object(versionFields);
export type PropertyVersionSummary = Static<typeof PropertyVersionSummary>;

/** `GET /v1/properties/{property_id}/versions`: every version of the record, the current one first. */
export const PropertyVersionList = Type.Object({ data: Type.Array(PropertyVersionSummary) });
export type PropertyVersionList = Static<typeof PropertyVersionList>;

/** `GET /v1/properties/{property_id}/versions/{version}`: the computed part of the record as that version held it. */
export const PropertyVersion = Type.Object({
  property_id: Type.Integer(),
  ...versionFields,
  parcel: Type.Unknown({ description: "The parcel product; null when the version had none." }),
  buildings: Type.Array(PropertyBuilding),
  data: Type.Record(Type.String(), Type.Unknown()),
  third_party: Type.Unknown({ description: "The third_party product; null when the version had none." }),
});
export type PropertyVersion = Static<typeof PropertyVersion>;

/**
 * One figure that changed. `path` names it from the record's top: object keys joined by dots, and an element of a
 * list by its key, e.g. `buildings[building_id=17].area_m2` or
 * `third_party.layers[dataset=FEMA flood zones].features[source_id=2301].overlap_m2`. `before` is null where the
 * figure is new, `after` null where it is gone.
 */
export const PropertyChange = Type.Object({
  path: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
});
export type PropertyChange = Static<typeof PropertyChange>;

/** The data of a `property.changed` webhook: one per property whose record an import changed. */
export const PropertyChangedData = Type.Object({
  property_id: Type.Integer(),
  external_id: Type.Union([Type.String(), Type.Null()]),
  /** The version the change made; the one before it is `version - 1`. */
  version: Type.Integer({ minimum: 2 }),
  changes: Type.Array(PropertyChange),
});
export type PropertyChangedData = Static<typeof PropertyChangedData>;
