import type { PropertyRecord } from "../api/api-shapes.js";

/** `data` of an `order.complete` event: the order finished and the property record holds its data. */
export interface OrderCompleteData {
  order_id: string;
  property_id: number;
  status: "complete";
  external_id?: string;
}

/** `data` of an `order.failed` event; `reason` is one of the documented failure reasons. */
export interface OrderFailedData {
  order_id: string;
  property_id: number;
  status: "failed";
  reason: string;
  external_id?: string;
}

/**
 * `data` of a `footprint.submitted` event: the insured buildings the user selected on a page, which are now the
 * property's policy buildings (the same shape as the property record's `policy_buildings`).
 */
export interface FootprintSubmittedData {
  property_id: number;
  external_id: string | null;
  address: string;
  /** The publisher's id of the parcel the buildings stand on. */
  parcel_source_id: string;
  buildings: PropertyRecord["policy_buildings"];
}

/**
 * `data` of an `order-batch.complete` event, sent once to the batch's `callback_url` when its last order settled:
 * the batch's counts (`complete` + `failed` = `accepted`; `accepted` + `rejected` = `rows`). Read each row's
 * outcome with `orderBatchResults`.
 */
export interface OrderBatchCompleteData {
  batch_id: string;
  /** The batch's name, when it was given one. */
  name?: string;
  status: "complete";
  rows: number;
  accepted: number;
  rejected: number;
  complete: number;
  failed: number;
}

/** A verified webhook body, discriminated by `type` (DESIGN.md §8). */
export type WebhookEvent =
  | { type: "order.complete"; timestamp: string; data: OrderCompleteData }
  | { type: "order.failed"; timestamp: string; data: OrderFailedData }
  | { type: "footprint.submitted"; timestamp: string; data: FootprintSubmittedData }
  | { type: "order-batch.complete"; timestamp: string; data: OrderBatchCompleteData };
