import type { TokenProvider } from "../tokens/token-provider.js";
import { endpointUrl } from "../urls/endpoint-url.js";
import type {
  AddressSearchQuery,
  AddressSearchResult,
  CreateOrderBatchInput,
  CustomFieldList,
  EventList,
  EventListQuery,
  ImpactedPropertyList,
  ImpactedPropertyListQuery,
  Me,
  Monitoring,
  Order,
  OrderBatch,
  OrderBatchList,
  OrderBatchListQuery,
  OrderBatchResult,
  OrderList,
  OrderListQuery,
  PlacedOrder,
  PlacedOrderBatch,
  PlaceOrderRequest,
  ProductMatrixList,
  PropertyList,
  PropertyListQuery,
  PropertyRecord,
  PropertyVersion,
  PropertyVersionList,
  SetMonitoringRequest,
  WebhookDeliveryList,
  WebhookDeliveryListQuery,
} from "./api-shapes.js";
import { orderBatchRequest } from "./order-batch-request.js";
import { orderBatchResults } from "./order-batch-results.js";
import { sendRequest, type Transport } from "./send-request.js";

/** Options of {@link createApiClient}. */
export interface ApiClientOptions {
  /**
   * The data API address ({base_url}), like `https://lotline.example/v1`, or Lotline's origin, like
   * `https://lotline.example` (`/v1` is then added). Any other path throws `ConfigurationError`.
   */
  baseUrl: string;
  /** Where bearer tokens come from: a {@link createTokenProvider} shared by all clients of a process. */
  tokens: TokenProvider;
  /** The fetch to use. Default: the global fetch. */
  fetch?: typeof fetch;
  /**
   * Retries of a request answered 429 or 503, or, when repeating it is safe (a GET, `setMonitoring` and
   * `clearMonitoring`, or `createOrder` and `createOrderBatch` with their `Idempotency-Key`), that got no answer.
   * Default 3. A CSV batch sent as a stream is never retried.
   */
  maxRetries?: number;
  /** The longest wait before a retry, whatever `Retry-After` says, in milliseconds. Default 60 000. */
  maxRetryDelayMs?: number;
  /**
   * How long one attempt — the request and the whole answer — may take before it is aborted, in milliseconds.
   * Default 30 000. A timed-out attempt counts as one that got no answer. For `orderBatchResults`, it bounds the
   * wait for the answer's head and then for each chunk of the stream, not the whole stream.
   */
  timeoutMs?: number;
}

/** Options of {@link ApiClient.createOrder}. */
export interface CreateOrderOptions {
  /**
   * The `Idempotency-Key` to send. Default: a random UUID, reused by this call's retries. Pass your own (an id of
   * the policy transaction, say) to make retries of your own job safe too: the server replays the first answer
   * for 24 hours.
   */
  idempotencyKey?: string;
}

/** Options of {@link ApiClient.createOrderBatch}. */
export interface CreateOrderBatchOptions {
  /**
   * The `Idempotency-Key` to send. Default: a random UUID, reused by this call's retries. Pass your own (an id of
   * the import job, say) to make a resend of the same book place it once: the server replays the first answer for
   * 24 hours.
   */
  idempotencyKey?: string;
  /**
   * How long the attempt may take, in milliseconds: the upload, the server's reading and checking of every row,
   * and its answer. Default: the client's `timeoutMs`. A book of many thousand rows needs minutes.
   */
  timeoutMs?: number;
}

/**
 * The data API, typed by the server's OpenAPI document. Every method throws {@link ApiError} on an error answer,
 * and {@link ApiNetworkError} when no answer came (after the retries that were safe).
 */
export interface ApiClient {
  /** `GET /v1/me`: who the credentials belong to. */
  me(): Promise<Me>;
  /** `GET /v1/addresses`: address candidates for what a user typed. */
  searchAddresses(query: AddressSearchQuery): Promise<AddressSearchResult>;
  /** `GET /v1/product-matrices`: the product matrices an order may name. */
  listProductMatrices(): Promise<ProductMatrixList>;
  /** `GET /v1/custom-fields`: the custom policy fields an order may carry. */
  listCustomFields(): Promise<CustomFieldList>;
  /** `POST /v1/orders` with an `Idempotency-Key`: the order is then processed in the background. */
  createOrder(order: PlaceOrderRequest, options?: CreateOrderOptions): Promise<PlacedOrder>;
  /** `GET /v1/orders/{order_id}`. */
  getOrder(orderId: string): Promise<Order>;
  /** `GET /v1/orders`: newest first, a page at a time (`next_cursor`). */
  listOrders(query?: OrderListQuery): Promise<OrderList>;
  /**
   * `POST /v1/order-batches` with an `Idempotency-Key`: a whole book at once, as `{ orders }` (JSON) or `{ csv }`
   * (`text/csv`; `name` and `callback_url` go as query parameters). Bad rows are rejected alone and listed; the
   * good ones become orders, processed in the background. A book given as a string, bytes or orders is retried like
   * `createOrder`; one given as a stream is sent once (it cannot be read again): on any failure, call again with
   * a fresh stream and the same `idempotencyKey`. Over the server's row limit: {@link ApiError} 413
   * `batch_too_large`.
   */
  createOrderBatch(input: CreateOrderBatchInput, options?: CreateOrderBatchOptions): Promise<PlacedOrderBatch>;
  /** `GET /v1/order-batches/{batch_id}`: the batch and how many of its orders are processing, complete, failed. */
  getOrderBatch(batchId: string): Promise<OrderBatch>;
  /** `GET /v1/order-batches`: newest first, a page at a time (`next_cursor`). */
  listOrderBatches(query?: OrderBatchListQuery): Promise<OrderBatchList>;
  /**
   * `GET /v1/order-batches/{batch_id}/results`: one result per input row, in row order, read as the server
   * streams them (NDJSON), so a book of 100,000 rows is never held in memory. The request goes when iteration
   * starts; an unknown batch throws {@link ApiError} 404 there. Rows still processing say so: read again once the
   * batch is complete. `timeoutMs` bounds the wait for the answer and then for each chunk, not the whole stream;
   * a stream that stalls or breaks off throws {@link ApiNetworkError} (iterate again to read from the start).
   *
   * @example
   * ```ts
   * for await (const result of api.orderBatchResults(batchId)) {
   *   if (result.status === "complete") await store(result.external_id, result.flood_zone);
   * }
   * ```
   */
  orderBatchResults(batchId: string): AsyncIterable<OrderBatchResult>;
  /** `GET /v1/properties/{property_id}`: the property record with its data. */
  getProperty(propertyId: number): Promise<PropertyRecord>;
  /** `GET /v1/properties?external_id=`: the property records with a policy's external id. */
  listProperties(query: PropertyListQuery): Promise<PropertyList>;
  /**
   * `GET /v1/properties/{property_id}/versions`: every version of the property's record, the current one first,
   * each with what made it (`cause`) and the datasets it was computed from.
   */
  listPropertyVersions(propertyId: number): Promise<PropertyVersionList>;
  /** `GET /v1/properties/{property_id}/versions/{version}`: one version of the property's record, as it was. */
  getPropertyVersion(propertyId: number, version: number): Promise<PropertyVersion>;
  /** `GET /v1/monitoring`: where `event.impacted` and `property.changed` webhooks go (`callback_url` null: nowhere). */
  getMonitoring(): Promise<Monitoring>;
  /**
   * `PUT /v1/monitoring`: sends `event.impacted` and `property.changed` webhooks to `callback_url`, which must start
   * with one of the organization's registered callback prefixes (else {@link ApiError} 422
   * `callback_url_not_registered`, and nothing changes). Retried when it got no answer: setting it again changes
   * nothing more.
   */
  setMonitoring(input: SetMonitoringRequest): Promise<Monitoring>;
  /** `DELETE /v1/monitoring`: stops monitoring webhooks. Retried when it got no answer, like `setMonitoring`. */
  clearMonitoring(): Promise<void>;
  /** `GET /v1/events`: catastrophe events, newest first, a page at a time (`next_cursor`). */
  listEvents(query?: EventListQuery): Promise<EventList>;
  /**
   * `GET /v1/events/{event_id}/impacted-properties`: the organization's properties the event met, by property id,
   * a page at a time (`next_cursor`), as JSON.
   */
  listImpactedProperties(eventId: string, query?: ImpactedPropertyListQuery): Promise<ImpactedPropertyList>;
  /** `GET /v1/webhook-deliveries`: events sent to callback URLs, with every attempt. */
  listWebhookDeliveries(query?: WebhookDeliveryListQuery): Promise<WebhookDeliveryList>;
  /**
   * `POST /v1/webhook-deliveries/{webhook_id}/redeliver`: sends an event again, with the same `webhook-id`. Not
   * retried when it got no answer: it may have been sent.
   */
  redeliverWebhook(webhookId: string): Promise<void>;
}

/**
 * A client of the data API. It takes bearer tokens from `tokens`, retries 429 and 503 as `Retry-After` asks,
 * renews the token once on a 401, and sends an `Idempotency-Key` with every order and batch so a retried one is placed
 * once. Each attempt is aborted after `timeoutMs` (30 s). An attempt that got no answer (connection refused or
 * reset, timeout) is retried, with the same backoff and within the same `maxRetries`, only when that is safe:
 * GETs, `setMonitoring` and `clearMonitoring` (a PUT and a DELETE: repeated, they change nothing more),
 * `createOrder` and `createOrderBatch` (the same `Idempotency-Key` on every attempt; a streamed CSV book excepted,
 * which is sent once), never `redeliverWebhook`.
 *
 * @example
 * ```ts
 * const api = createApiClient({ baseUrl: "https://lotline.example/v1", tokens }); // or just the origin
 * const { order_id, property_id } = await api.createOrder({
 *   address: "12 Oak Street, Springfield, IL",
 *   external_id: "POL-1234",
 * });
 * // …later, or when the order.complete webhook arrives:
 * const property = await api.getProperty(property_id);
 * ```
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  // Checked here, at start-up, rather than as a 404 on the first call. The paths below are the OpenAPI
  // document's (`/v1/…`), so they go after what precedes `/v1` in the API's address (a proxy's prefix, if any).
  const apiUrl = endpointUrl("baseUrl", options.baseUrl);
  const transport: Transport = {
    baseUrl: apiUrl.slice(0, -"/v1".length),
    tokens: options.tokens,
    fetch: options.fetch ?? globalThis.fetch,
    maxRetries: options.maxRetries ?? 3,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  // The server's types are its contract; the request layer returns parsed JSON of that shape.
  const get = <T>(path: string, query?: Record<string, string | number | undefined>) =>
    sendRequest(transport, { method: "GET", path, query }) as Promise<T>;
  const segment = encodeURIComponent;

  return {
    me: () => get<Me>("/v1/me"),
    searchAddresses: (query) => get<AddressSearchResult>("/v1/addresses", query),
    listProductMatrices: () => get<ProductMatrixList>("/v1/product-matrices"),
    listCustomFields: () => get<CustomFieldList>("/v1/custom-fields"),
    createOrder: (order, { idempotencyKey = crypto.randomUUID() } = {}) =>
      sendRequest(transport, {
        method: "POST",
        path: "/v1/orders",
        body: order,
        headers: { "idempotency-key": idempotencyKey },
      }) as Promise<PlacedOrder>,
    getOrder: (orderId) => get<Order>(`/v1/orders/${segment(orderId)}`),
    listOrders: (query) => get<OrderList>("/v1/orders", query),
    createOrderBatch: (input, { idempotencyKey = crypto.randomUUID(), timeoutMs } = {}) =>
      sendRequest(transport, { ...orderBatchRequest(input, idempotencyKey), timeoutMs }) as Promise<PlacedOrderBatch>,
    getOrderBatch: (batchId) => get<OrderBatch>(`/v1/order-batches/${segment(batchId)}`),
    listOrderBatches: (query) => get<OrderBatchList>("/v1/order-batches", query),
    orderBatchResults: (batchId) => orderBatchResults(transport, `/v1/order-batches/${segment(batchId)}/results`),
    getProperty: (propertyId) => get<PropertyRecord>(`/v1/properties/${segment(String(propertyId))}`),
    listProperties: (query) => get<PropertyList>("/v1/properties", query),
    listPropertyVersions: (propertyId) =>
      get<PropertyVersionList>(`/v1/properties/${segment(String(propertyId))}/versions`),
    getPropertyVersion: (propertyId, version) =>
      get<PropertyVersion>(`/v1/properties/${segment(String(propertyId))}/versions/${segment(String(version))}`),
    getMonitoring: () => get<Monitoring>("/v1/monitoring"),
    setMonitoring: (input) =>
      sendRequest(transport, { method: "PUT", path: "/v1/monitoring", body: input }) as Promise<Monitoring>,
    clearMonitoring: async () => {
      await sendRequest(transport, { method: "DELETE", path: "/v1/monitoring" });
    },
    listEvents: (query) => get<EventList>("/v1/events", query),
    listImpactedProperties: (eventId, query) =>
      get<ImpactedPropertyList>(`/v1/events/${segment(eventId)}/impacted-properties`, query),
    listWebhookDeliveries: (query) => get<WebhookDeliveryList>("/v1/webhook-deliveries", query),
    redeliverWebhook: async (webhookId) => {
      await sendRequest(transport, { method: "POST", path: `/v1/webhook-deliveries/${segment(webhookId)}/redeliver` });
    },
  };
}
