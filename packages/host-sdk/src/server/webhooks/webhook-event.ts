import type { FootprintSubmittedData } from "@lotline/contract";

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

/** A verified webhook body, discriminated by `type` (DESIGN.md §8). */
export type WebhookEvent =
  | { type: "order.complete"; timestamp: string; data: OrderCompleteData }
  | { type: "order.failed"; timestamp: string; data: OrderFailedData }
  | { type: "footprint.submitted"; timestamp: string; data: FootprintSubmittedData };
