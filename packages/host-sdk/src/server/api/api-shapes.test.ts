import type { EventImpactedData, FootprintSubmittedData, PropertyChangedData } from "@lotline/contract";
import { describe, expectTypeOf, it } from "vitest";
import type { WebhookEvent } from "../webhooks/webhook-event.js";
import type {
  AddressSearchQuery,
  EventList,
  EventListQuery,
  ImpactedPropertyList,
  ImpactedPropertyListQuery,
  Monitoring,
  Order,
  OrderBatch,
  OrderBatchListQuery,
  OrderBatchResult,
  OrderListQuery,
  PlacedOrder,
  PlacedOrderBatch,
  PlaceOrderBatchRequest,
  PlaceOrderRequest,
  PropertyListQuery,
  PropertyRecord,
  PropertyVersion,
  PropertyVersionList,
  SetMonitoringRequest,
  SuccessBody,
} from "./api-shapes.js";

// Property access on `never` type-checks silently, so a helper that resolved to `never` would go unnoticed by the
// other tests: these pin the shapes the generated `paths` give (checked by tsc, run as a test by vitest).
describe("the API types taken from the generated paths", () => {
  it("resolve to the server's shapes, not never", () => {
    expectTypeOf<Order["status"]>().toEqualTypeOf<"processing" | "complete" | "failed">();
    expectTypeOf<PlacedOrder>().toEqualTypeOf<{ order_id: string; property_id: number; status: "processing" }>();
    expectTypeOf<PlaceOrderRequest["address"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PropertyRecord["property_id"]>().toEqualTypeOf<number>();
    expectTypeOf<PropertyListQuery["external_id"]>().toEqualTypeOf<string>();
    expectTypeOf<AddressSearchQuery["q"]>().toEqualTypeOf<string>();
    expectTypeOf<OrderListQuery["status"]>().toEqualTypeOf<"processing" | "complete" | "failed" | undefined>();
    expectTypeOf<PlaceOrderBatchRequest["orders"]>().toEqualTypeOf<PlaceOrderRequest[]>();
    expectTypeOf<PlacedOrderBatch["rejections"][number]["row"]>().toEqualTypeOf<number>();
    expectTypeOf<OrderBatch["status"]>().toEqualTypeOf<"processing" | "complete">();
    expectTypeOf<OrderBatchListQuery["cursor"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<OrderBatchResult["status"]>().toEqualTypeOf<"rejected" | "processing" | "complete" | "failed">();
    expectTypeOf<OrderBatchResult["flood_zone"]>().toEqualTypeOf<string | null>();
  });

  it("resolve the monitoring, event and property version shapes", () => {
    expectTypeOf<Monitoring>().toEqualTypeOf<{ callback_url: string | null; updated_at: string | null }>();
    expectTypeOf<SuccessBody<"/v1/monitoring", "put">>().toEqualTypeOf<Monitoring>();
    expectTypeOf<SetMonitoringRequest>().toEqualTypeOf<{ callback_url: string }>();
    expectTypeOf<EventListQuery>().toEqualTypeOf<{ cursor?: string; limit?: number }>();
    expectTypeOf<EventList["data"][number]["peril"]>().toEqualTypeOf<
      "flood" | "wind" | "hail" | "wildfire" | "earthquake" | "other"
    >();
    expectTypeOf<EventList["next_cursor"]>().toEqualTypeOf<string | null>();
    expectTypeOf<ImpactedPropertyListQuery>().toEqualTypeOf<{ cursor?: string; limit?: number }>();
    expectTypeOf<ImpactedPropertyList["data"][number]["parcel_share_inside"]>().toEqualTypeOf<number | null>();
    expectTypeOf<ImpactedPropertyList["data"][number]["property_id"]>().toEqualTypeOf<number>();
    expectTypeOf<PropertyVersionList["data"][number]["cause"]>().toEqualTypeOf<"order" | "data_change">();
    expectTypeOf<PropertyVersion["cause"]>().toEqualTypeOf<"order" | "data_change">();
    expectTypeOf<PropertyVersion["version"]>().toEqualTypeOf<number>();
    expectTypeOf<PropertyVersion["datasets"][number]["vintage"]>().toEqualTypeOf<string | null>();
  });

  it("types a webhook's data by its type", () => {
    expectTypeOf<
      Extract<WebhookEvent, { type: "footprint.submitted" }>["data"]
    >().toEqualTypeOf<FootprintSubmittedData>();
    expectTypeOf<Extract<WebhookEvent, { type: "order.failed" }>["data"]["reason"]>().toEqualTypeOf<string>();
    expectTypeOf<Extract<WebhookEvent, { type: "order-batch.complete" }>["data"]["failed"]>().toEqualTypeOf<number>();
    expectTypeOf<Extract<WebhookEvent, { type: "event.impacted" }>["data"]>().toEqualTypeOf<EventImpactedData>();
    expectTypeOf<Extract<WebhookEvent, { type: "property.changed" }>["data"]>().toEqualTypeOf<PropertyChangedData>();
  });
});
