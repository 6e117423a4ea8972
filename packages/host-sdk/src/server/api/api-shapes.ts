import type { paths } from "../generated/api-types.js";

/**
 * Types of the data API taken from the generated `paths` (the server's OpenAPI document), so they change when the
 * server does and never drift into hand-copied shapes.
 */

type Method = "get" | "put" | "post" | "delete";
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<R> = R extends { content: { "application/json": infer Body } } ? Body : never;
type NdjsonLineOf<R> = R extends { content: { "application/x-ndjson": infer Line } } ? Line : never;

/** The JSON body of the success answer (200 or 202) of `M P`. */
export type SuccessBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? JsonOf<R extends { 200: infer Ok } ? Ok : R extends { 202: infer Accepted } ? Accepted : never>
    : never;

/** One line of the NDJSON body of the 200 answer of `GET P`. */
export type NdjsonLine<P extends keyof paths> =
  Operation<P, "get"> extends { responses: { 200: infer Ok } } ? NdjsonLineOf<Ok> : never;

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
/** `GET /v1/properties/{property_id}/versions`: every version of the record, the current one first. */
export type PropertyVersionList = SuccessBody<"/v1/properties/{property_id}/versions", "get">;
/** `GET /v1/properties/{property_id}/versions/{version}`: one version of the record, as it was. */
export type PropertyVersion = SuccessBody<"/v1/properties/{property_id}/versions/{version}", "get">;
/** `GET /v1/monitoring`: where monitoring webhooks go (`callback_url` null when nowhere). */
export type Monitoring = SuccessBody<"/v1/monitoring", "get">;
/** `PUT /v1/monitoring` body: a `callback_url` starting with one of the organization's registered prefixes. */
export type SetMonitoringRequest = RequestBody<"/v1/monitoring", "put">;
/** `GET /v1/events` query. */
export type EventListQuery = QueryOf<"/v1/events", "get">;
/** `GET /v1/events`: a page of catastrophe events, newest first, each with how many properties it met. */
export type EventList = SuccessBody<"/v1/events", "get">;
/** `GET /v1/events/{event_id}/impacted-properties` query. */
export type ImpactedPropertyListQuery = QueryOf<"/v1/events/{event_id}/impacted-properties", "get">;
/** `GET /v1/events/{event_id}/impacted-properties`: a page of the properties the event met, by property id. */
export type ImpactedPropertyList = SuccessBody<"/v1/events/{event_id}/impacted-properties", "get">;
/** `GET /v1/webhook-deliveries` query. */
export type WebhookDeliveryListQuery = QueryOf<"/v1/webhook-deliveries", "get">;
/** `GET /v1/webhook-deliveries`: events with every delivery attempt. */
export type WebhookDeliveryList = SuccessBody<"/v1/webhook-deliveries", "get">;
/**
 * `POST /v1/order-batches` as JSON: up to 100,000 orders, each the body of `POST /v1/orders` (checked one by one:
 * a bad order is rejected alone), and the batch's optional `name` and `callback_url` (which receives
 * `order-batch.complete`).
 */
export type PlaceOrderBatchRequest = Omit<RequestBody<"/v1/order-batches", "post">, "orders"> & {
  orders: PlaceOrderRequest[];
};
/**
 * A CSV book for `POST /v1/order-batches`: a header row, then one order per row. A string or bytes can be sent
 * again, so a call that got no answer is retried; a stream (a web `ReadableStream`, or any async iterable of
 * chunks, such as Node's `fs.createReadStream`) is read once while it is sent, so it is never retried.
 */
export type OrderBatchCsv = string | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;
/** `POST /v1/order-batches` as `text/csv`: the file, and the batch's `name` and `callback_url` (query parameters). */
export type OrderBatchCsvUpload = QueryOf<"/v1/order-batches", "post"> & { csv: OrderBatchCsv };
/** What `createOrderBatch` sends: orders as JSON, or a CSV book. */
export type CreateOrderBatchInput = PlaceOrderBatchRequest | OrderBatchCsvUpload;
/** `POST /v1/order-batches` answer (202): the rows read, those accepted, and the first 100 rejections. */
export type PlacedOrderBatch = SuccessBody<"/v1/order-batches", "post">;
/** `GET /v1/order-batches/{batch_id}`: the batch and how far its orders have got. */
export type OrderBatch = SuccessBody<"/v1/order-batches/{batch_id}", "get">;
/** `GET /v1/order-batches` query. */
export type OrderBatchListQuery = QueryOf<"/v1/order-batches", "get">;
/** `GET /v1/order-batches`: a page of batches, newest first, and the cursor of the next. */
export type OrderBatchList = SuccessBody<"/v1/order-batches", "get">;
/** One line of `GET /v1/order-batches/{batch_id}/results`: an input row, its order and the headline figures. */
export type OrderBatchResult = NdjsonLine<"/v1/order-batches/{batch_id}/results">;
