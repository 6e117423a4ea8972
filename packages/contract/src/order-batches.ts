import { type Static, type TSchema, Type } from "typebox";
import { ORDER_BATCH_REJECTIONS_SHOWN, ORDER_BATCH_ROWS_MAX } from "./limits.js";

/** `POST /v1/order-batches` as JSON: each order is the body of `POST /v1/orders`, checked one by one. */
export const OrderBatchRequest = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    callback_url: Type.Optional(
      Type.String({ format: "uri", maxLength: 2000, description: "Receives order-batch.complete." }),
    ),
    orders: Type.Array(Type.Unknown({ description: "The body of POST /v1/orders." }), {
      description: `Up to ${ORDER_BATCH_ROWS_MAX.toLocaleString("en-US")} orders; a bad one is rejected alone.`,
    }),
  },
  { additionalProperties: false },
);
export type OrderBatchRequest = Static<typeof OrderBatchRequest>;

/** A row refused at intake: its number (1 = the first data row), the field to blame if one is, and why. */
export const OrderBatchRejection = Type.Object({
  row: Type.Integer({ minimum: 1 }),
  field: Type.Optional(Type.String()),
  reason: Type.String({ description: "A stable code, e.g. address_or_location_required, invalid_renewal_date." }),
});
export type OrderBatchRejection = Static<typeof OrderBatchRejection>;

/** `202` answer to `POST /v1/order-batches`. */
export const OrderBatchAccepted = Type.Object({
  batch_id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal("processing"), Type.Literal("complete")]),
  rows: Type.Integer(),
  accepted: Type.Integer(),
  rejected: Type.Integer(),
  ignored_columns: Type.Array(Type.String()),
  rejections: Type.Array(OrderBatchRejection, {
    description: `The first ${ORDER_BATCH_REJECTIONS_SHOWN}; the results list them all.`,
  }),
});
export type OrderBatchAccepted = Static<typeof OrderBatchAccepted>;

export const OrderBatchStatus = Type.Union([Type.Literal("processing"), Type.Literal("complete")]);
export type OrderBatchStatus = Static<typeof OrderBatchStatus>;

/** `GET /v1/order-batches/{batch_id}`: the batch and how far its orders have got. */
export const OrderBatch = Type.Object({
  batch_id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  status: OrderBatchStatus,
  rows: Type.Integer(),
  accepted: Type.Integer(),
  rejected: Type.Integer(),
  processing: Type.Integer(),
  complete: Type.Integer(),
  failed: Type.Integer(),
  created_at: Type.String({ format: "date-time" }),
  completed_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
});
export type OrderBatch = Static<typeof OrderBatch>;

export const OrderBatchList = Type.Object({
  data: Type.Array(OrderBatch),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type OrderBatchList = Static<typeof OrderBatchList>;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One line of `GET /v1/order-batches/{batch_id}/results`: an input row, its order and the headline figures. */
export const OrderBatchResult = Type.Object({
  row: Type.Integer({ minimum: 1 }),
  status: Type.Union([
    Type.Literal("rejected"),
    Type.Literal("processing"),
    Type.Literal("complete"),
    Type.Literal("failed"),
  ]),
  reason: Nullable(Type.String()),
  order_id: Nullable(Type.String()),
  property_id: Nullable(Type.Integer()),
  external_id: Nullable(Type.String()),
  address: Nullable(Type.String({ description: "As located." })),
  parcel_source_id: Nullable(Type.String()),
  building_count: Nullable(Type.Integer()),
  parcel_area_m2: Nullable(Type.Number()),
  footprint_area_m2: Nullable(Type.Number({ description: "All buildings on the lot." })),
  flood_zone: Nullable(Type.String({ description: "FEMA zone (fld_zone) of the flood layer meeting the lot." })),
  fire_station_distance_m: Nullable(Type.Number()),
  hydrant_distance_m: Nullable(Type.Number()),
});
export type OrderBatchResult = Static<typeof OrderBatchResult>;

/** The columns of the results, in order (also the CSV header). */
export const ORDER_BATCH_RESULT_COLUMNS = Object.keys(OrderBatchResult.properties) as Array<keyof OrderBatchResult>;
