import type { FootprintSubmittedData } from "@lotline/contract";
import { describe, expectTypeOf, it } from "vitest";
import type { WebhookEvent } from "../webhooks/webhook-event.js";
import type {
  AddressSearchQuery,
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

  it("types a webhook's data by its type", () => {
    expectTypeOf<
      Extract<WebhookEvent, { type: "footprint.submitted" }>["data"]
    >().toEqualTypeOf<FootprintSubmittedData>();
    expectTypeOf<Extract<WebhookEvent, { type: "order.failed" }>["data"]["reason"]>().toEqualTypeOf<string>();
    expectTypeOf<Extract<WebhookEvent, { type: "order-batch.complete" }>["data"]["failed"]>().toEqualTypeOf<number>();
  });
});
