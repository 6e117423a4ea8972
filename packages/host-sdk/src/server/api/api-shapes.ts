import type { paths } from "../generated/api-types.js";

/**
 * Types of the data API taken from the generated `paths` (the server's OpenAPI document), so they change when the
 * server does and never drift into hand-copied shapes.
 */

type Method = "get" | "post";
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<R> = R extends { content: { "application/json": infer Body } } ? Body : never;

/** The JSON body of the success answer (200 or 202) of `M P`. */
export type SuccessBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? JsonOf<R extends { 200: infer Ok } ? Ok : R extends { 202: infer Accepted } ? Accepted : never>
    : never;

/** The query parameters of `M P`. */
export type QueryOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The JSON request body of `M P`. */
export type RequestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody: { content: { "application/json": infer Body } } } ? Body : never;

/** `GET /v1/me`: the organization and client the token belongs to. */
export type Me = SuccessBody<"/v1/me", "get">;
/** `GET /v1/addresses` query: `q` (what the user typed) and `limit`. */
export type AddressSearchQuery = QueryOf<"/v1/addresses", "get">;
/** `GET /v1/addresses`: scored address candidates. */
export type AddressSearchResult = SuccessBody<"/v1/addresses", "get">;
/** `GET /v1/product-matrices`. */
export type ProductMatrixList = SuccessBody<"/v1/product-matrices", "get">;
/** `GET /v1/custom-fields`. */
export type CustomFieldList = SuccessBody<"/v1/custom-fields", "get">;
/** `POST /v1/orders` body: one of `address` or `location`, and the policy fields. */
export type PlaceOrderRequest = RequestBody<"/v1/orders", "post">;
/** `POST /v1/orders` answer (202): the order is processing. */
export type PlacedOrder = SuccessBody<"/v1/orders", "post">;
/** `GET /v1/orders/{order_id}`. */
export type Order = SuccessBody<"/v1/orders/{order_id}", "get">;
/** `GET /v1/orders` query. */
export type OrderListQuery = QueryOf<"/v1/orders", "get">;
/** `GET /v1/orders`: a page of orders and the cursor of the next. */
export type OrderList = SuccessBody<"/v1/orders", "get">;
/** `GET /v1/properties/{property_id}`: the property record. */
export type PropertyRecord = SuccessBody<"/v1/properties/{property_id}", "get">;
/** `GET /v1/properties` query: `external_id` is required. */
export type PropertyListQuery = QueryOf<"/v1/properties", "get">;
/** `GET /v1/properties`. */
export type PropertyList = SuccessBody<"/v1/properties", "get">;
/** `GET /v1/webhook-deliveries` query. */
export type WebhookDeliveryListQuery = QueryOf<"/v1/webhook-deliveries", "get">;
/** `GET /v1/webhook-deliveries`: events with every delivery attempt. */
export type WebhookDeliveryList = SuccessBody<"/v1/webhook-deliveries", "get">;
