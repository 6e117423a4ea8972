import { type Static, Type } from "typebox";

/** The kinds of catastrophe an event records. */
export const PERILS = ["flood", "wind", "hail", "wildfire", "earthquake", "other"] as const;
export const Peril = Type.Union([
  Type.Literal("flood"),
  Type.Literal("wind"),
  Type.Literal("hail"),
  Type.Literal("wildfire"),
  Type.Literal("earthquake"),
  Type.Literal("other"),
]);
export type Peril = Static<typeof Peril>;

/** A catastrophe event the operator imported, as one organization sees it. */
export const CatastropheEvent = Type.Object({
  event_id: Type.String(),
  name: Type.String(),
  peril: Peril,
  date: Type.Union([Type.String({ format: "date" }), Type.Null()], { description: "The day it struck, if given." }),
  imported_at: Type.String({ format: "date-time" }),
  impacted_properties: Type.Integer({
    minimum: 0,
    description: "How many of this organization's ordered properties the event's area meets.",
  }),
});
export type CatastropheEvent = Static<typeof CatastropheEvent>;

/** `GET /v1/events`: newest first. */
export const CatastropheEventList = Type.Object({
  data: Type.Array(CatastropheEvent),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type CatastropheEventList = Static<typeof CatastropheEventList>;

/** One of the organization's properties that an event's area meets. */
export const ImpactedProperty = Type.Object({
  property_id: Type.Integer(),
  external_id: Type.Union([Type.String(), Type.Null()]),
  address: Type.Union([Type.String(), Type.Null()]),
  parcel_share_inside: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
    description: "The share of the parcel's area inside the event's area, by geodesic area; null without a parcel.",
  }),
  buildings_inside: Type.Integer({ minimum: 0, description: "Buildings on the parcel that the area meets." }),
  buildings_total: Type.Integer({ minimum: 0 }),
  intensity: Type.Union([Type.Number(), Type.Null()], {
    description: "The highest value of the event's intensity field among its polygons meeting the property.",
  }),
});
export type ImpactedProperty = Static<typeof ImpactedProperty>;

/** The columns of the impacted properties as CSV, in the schema's order. */
export const IMPACTED_PROPERTY_COLUMNS = Object.keys(ImpactedProperty.properties) as Array<keyof ImpactedProperty>;

/** `GET /v1/events/{event_id}/impacted-properties`: by property id. */
export const ImpactedPropertyList = Type.Object({
  data: Type.Array(ImpactedProperty),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type ImpactedPropertyList = Static<typeof ImpactedPropertyList>;

/** The data of an `event.impacted` webhook: one per organization with impacted properties. */
export const EventImpactedData = Type.Object({
  event_id: Type.String(),
  name: Type.String(),
  peril: Peril,
  date: Type.Union([Type.String(), Type.Null()]),
  impacted_properties: Type.Integer({ minimum: 1 }),
});
export type EventImpactedData = Static<typeof EventImpactedData>;
