import { type Static, Type } from "typebox";
import { NonBlankText } from "./input.js";
import type { PRODUCT_NAMES } from "./products.js";

export const ProductName = Type.Union([
  Type.Literal("parcel"),
  Type.Literal("structures"),
  Type.Literal("exposure"),
  Type.Literal("location"),
  Type.Literal("third_party"),
]);
export type ProductName = (typeof PRODUCT_NAMES)[number];

export const ProductMatrix = Type.Object({
  product_matrix_id: Type.String(),
  name: Type.String(),
  products: Type.Array(ProductName),
  is_default: Type.Boolean(),
});
export type ProductMatrix = Static<typeof ProductMatrix>;

export const ProductMatrixList = Type.Object({ data: Type.Array(ProductMatrix) });
export type ProductMatrixList = Static<typeof ProductMatrixList>;

/** GeoJSON Polygon (RFC 7946): a parcel boundary the user drew. */
export const GeoJsonPolygon = Type.Object({
  type: Type.Literal("Polygon"),
  coordinates: Type.Array(Type.Array(Type.Array(Type.Number(), { minItems: 2, maxItems: 3 }), { minItems: 4 }), {
    minItems: 1,
  }),
});

/** How many custom fields an order may carry at most: an organization defines far fewer. */
export const CUSTOM_FIELDS_MAX = 64;

/** `POST /v1/orders`: one of `address` and `location` is required. */
export const OrderRequest = Type.Object(
  {
    address: Type.Optional(NonBlankText(300)),
    location: Type.Optional(
      Type.Object(
        { lat: Type.Number({ minimum: -90, maximum: 90 }), lon: Type.Number({ minimum: -180, maximum: 180 }) },
        { additionalProperties: false },
      ),
    ),
    external_id: Type.Optional(NonBlankText(200)),
    secondary_external_id: Type.Optional(NonBlankText(200)),
    insured_name: Type.Optional(NonBlankText(300)),
    renewal_date: Type.Optional(Type.String({ format: "date", description: "YYYY-MM-DD" })),
    premium_amount: Type.Optional(Type.Number({ minimum: 0 })),
    product_matrix_id: Type.Optional(NonBlankText(100)),
    parcel_boundary: Type.Optional(GeoJsonPolygon),
    callback_url: Type.Optional(Type.String({ format: "uri", maxLength: 2000 })),
    custom_fields: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { maxProperties: CUSTOM_FIELDS_MAX })),
  },
  { additionalProperties: false },
);
export type OrderRequest = Static<typeof OrderRequest>;

export const ORDER_STATUSES = ["processing", "complete", "failed"] as const;
export const OrderStatus = Type.Union([Type.Literal("processing"), Type.Literal("complete"), Type.Literal("failed")]);
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** `202` answer to `POST /v1/orders`. */
export const OrderAccepted = Type.Object({
  order_id: Type.String(),
  property_id: Type.Integer(),
  status: Type.Literal("processing"),
});
export type OrderAccepted = Static<typeof OrderAccepted>;

export const Order = Type.Object({
  order_id: Type.String(),
  property_id: Type.Integer(),
  status: OrderStatus,
  reason: Type.Optional(
    Type.String({
      description:
        "Why a failed order failed: address_not_found (no imported address matched well enough), " +
        "no_parcel_at_location (no parcel at the location and no boundary drawn), boundary_invalid, " +
        "boundary_self_intersecting, boundary_too_small (under 10 m²) or boundary_too_large (over 1 km²).",
    }),
  ),
  product_matrix_id: Type.String(),
  external_id: Type.Optional(Type.String()),
  created_at: Type.String({ format: "date-time" }),
  completed_at: Type.Optional(Type.String({ format: "date-time" })),
});
export type Order = Static<typeof Order>;

export const OrderList = Type.Object({
  data: Type.Array(Order),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type OrderList = Static<typeof OrderList>;
