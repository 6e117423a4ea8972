/**
 * `@lotline/host-sdk/server`: what an insurer's backend needs to integrate Lotline — cached data API tokens, a
 * typed data API client, iframe JWTs, and webhook verification. Named exports only, so bundlers keep what is used.
 */

export {
  type ApiClient,
  type ApiClientOptions,
  type CreateOrderBatchOptions,
  type CreateOrderOptions,
  createApiClient,
} from "./api/api-client.js";
export type {
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
  OrderBatchCsv,
  OrderBatchCsvUpload,
  OrderBatchList,
  OrderBatchListQuery,
  OrderBatchResult,
  OrderList,
  OrderListQuery,
  PlacedOrder,
  PlacedOrderBatch,
  PlaceOrderBatchRequest,
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
} from "./api/api-shapes.js";
export { ApiError } from "./errors/api-error.js";
export { type ApiNetworkCode, ApiNetworkError } from "./errors/api-network-error.js";
export { ConfigurationError } from "./errors/configuration-error.js";
export { IframeTokenError } from "./errors/iframe-token-error.js";
export { LotlineError } from "./errors/lotline-error.js";
export { TokenRequestError } from "./errors/token-request-error.js";
export { type WebhookVerificationCode, WebhookVerificationError } from "./errors/webhook-verification-error.js";
export type { components, paths } from "./generated/api-types.js";
export { type FetchIframeTokenOptions, fetchIframeToken, type IframeToken } from "./iframe/fetch-iframe-token.js";
export { createMemoryTokenStore } from "./tokens/memory-token-store.js";
export { createTokenProvider, type TokenProvider, type TokenProviderOptions } from "./tokens/token-provider.js";
export type { StoredToken, TokenStore } from "./tokens/token-store.js";
export { type VerifyWebhookOptions, verifyWebhook, type WebhookHeaders } from "./webhooks/verify-webhook.js";
export type {
  EventImpactedData,
  FootprintSubmittedData,
  OrderBatchCompleteData,
  OrderCompleteData,
  OrderFailedData,
  PropertyChange,
  PropertyChangedData,
  WebhookEvent,
} from "./webhooks/webhook-event.js";
