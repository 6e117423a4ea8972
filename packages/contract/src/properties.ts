import { type Static, Type } from "typebox";
import { GeoJsonArea, PolicyBuilding } from "./embed.js";
import { Peril } from "./events.js";
import { OrderStatus } from "./orders.js";

/** Where a value came from: one entry per dataset that went into a product. */
export const Provenance = Type.Object({
  dataset: Type.String(),
  provider: Type.Union([Type.String(), Type.Null()]),
  license: Type.Union([Type.String(), Type.Null()]),
  vintage: Type.Union([Type.String(), Type.Null()]),
  imported_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  note: Type.Optional(Type.String()),
});
export type Provenance = Static<typeof Provenance>;

/** A building on the property's lot, as the `structures` product found it (largest first). */
export const PropertyBuilding = Type.Object({
  building_id: Type.Integer(),
  source_id: Type.String({ description: "The publisher's id of the footprint." }),
  footprint: GeoJsonArea,
  area_m2: Type.Number(),
  area_ft2: Type.Number(),
  attributes: Type.Record(Type.String(), Type.Unknown(), { description: "The footprint's attributes as published." }),
});
export type PropertyBuilding = Static<typeof PropertyBuilding>;

/** One order of the property, newest first. */
export const PropertyOrder = Type.Object({
  order_id: Type.String(),
  status: OrderStatus,
  reason: Type.Optional(Type.String()),
  created_at: Type.String({ format: "date-time" }),
  completed_at: Type.Optional(Type.String({ format: "date-time" })),
});
export type PropertyOrder = Static<typeof PropertyOrder>;

/** A catastrophe event whose area met the property, newest first (see `GET /v1/events`). */
export const PropertyEvent = Type.Object({
  event_id: Type.String(),
  name: Type.String(),
  peril: Peril,
  date: Type.Union([Type.String({ format: "date" }), Type.Null()]),
  imported_at: Type.String({ format: "date-time" }),
  parcel_share_inside: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]),
  buildings_inside: Type.Integer({ minimum: 0 }),
  buildings_total: Type.Integer({ minimum: 0 }),
  intensity: Type.Union([Type.Number(), Type.Null()]),
});
export type PropertyEvent = Static<typeof PropertyEvent>;

/**
 * `GET /v1/properties/{property_id}` (DESIGN.md §6): where the property is, its parcel and buildings, the
 * computed products by name (`data`, each with `provenance` and `computed_at`), the imported layers' findings
 * (`third_party`), the policy fields given with its orders, the insured buildings chosen for the policy, its
 * orders, and the catastrophe events that met it.
 */
export const PropertyRecord = Type.Object({
  property_id: Type.Integer(),
  address: Type.Union([Type.String(), Type.Null()]),
  location: Type.Union([Type.Object({ lat: Type.Number(), lon: Type.Number() }), Type.Null()]),
  parcel: Type.Unknown({ description: "The parcel product: boundary, source_id, area_m2, …; null before one ran." }),
  buildings: Type.Array(PropertyBuilding),
  data: Type.Record(Type.String(), Type.Unknown()),
  third_party: Type.Unknown({ description: "The third_party product; null before one ran." }),
  policy: Type.Object({
    external_id: Type.Union([Type.String(), Type.Null()]),
    secondary_external_id: Type.Union([Type.String(), Type.Null()]),
    insured_name: Type.Union([Type.String(), Type.Null()]),
    renewal_date: Type.Union([Type.String(), Type.Null()]),
    premium_amount: Type.Union([Type.Number(), Type.Null()]),
    custom_fields: Type.Record(Type.String(), Type.Unknown()),
  }),
  policy_buildings: Type.Array(PolicyBuilding),
  orders: Type.Array(PropertyOrder),
  events: Type.Array(PropertyEvent),
  version: Type.Integer({
    minimum: 0,
    description: "The version of the computed record (`/versions`); 0 before an order completed.",
  }),
  updated_at: Type.String({ format: "date-time" }),
});
export type PropertyRecord = Static<typeof PropertyRecord>;

export const PropertyRecordList = Type.Object({
  data: Type.Array(PropertyRecord),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type PropertyRecordList = Static<typeof PropertyRecordList>;
