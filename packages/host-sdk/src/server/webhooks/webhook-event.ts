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

/**
 * `data` of an `event.impacted` event, sent to the monitoring callback (`PUT /v1/monitoring`) when a catastrophe
 * event met properties of the organization: its own count; `GET /v1/events/{event_id}/impacted-properties` lists
 * them.
 */
export interface EventImpactedData {
  event_id: string;
  name: string;
  peril: "flood" | "wind" | "hail" | "wildfire" | "earthquake" | "other";
  date: string | null;
  impacted_properties: number;
}

/** One figure of a property record that changed; `before` is null where it is new, `after` where it is gone. */
export interface PropertyChange {
  /** From the record's top, e.g. `buildings[building_id=17].area_m2` or `third_party.layers[dataset=…].intersects`. */
  path: string;
  before: unknown;
  after: unknown;
}

/**
 * `data` of a `property.changed` event, sent to the monitoring callback when imported data under the property
 * changed a figure of its record: the new version's number and the changes
 * (`GET /v1/properties/{property_id}/versions/{version}` gives either version whole).
 */
export interface PropertyChangedData {
  property_id: number;
  external_id: string | null;
  version: number;
  changes: PropertyChange[];
}

/** A verified webhook body, discriminated by `type` (DESIGN.md §8). */
export type WebhookEvent =
  | { type: "order.complete"; timestamp: string; data: OrderCompleteData }
  | { type: "order.failed"; timestamp: string; data: OrderFailedData }
  | { type: "footprint.submitted"; timestamp: string; data: FootprintSubmittedData }
  | { type: "order-batch.complete"; timestamp: string; data: OrderBatchCompleteData }
  | { type: "event.impacted"; timestamp: string; data: EventImpactedData }
  | { type: "property.changed"; timestamp: string; data: PropertyChangedData };
