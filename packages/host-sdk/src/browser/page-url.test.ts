import { describe, expect, it } from "vitest";
import { pageUrl } from "./page-url.js";

describe("pageUrl", () => {
  const base = "https://lotline.example";

  it("builds the new order address with its parameters, leaving out empty ones", () => {
    const url = new URL(
      pageUrl(
        `${base}/`,
        { page: "new-order", params: { address: "1 Main St", external_id: " ", insured_name: "A & B" } },
        "j.w.t",
      ),
    );
    expect(url.origin + url.pathname).toBe(`${base}/property-profile/new-order`);
    expect([...url.searchParams]).toEqual([
      ["jwt", "j.w.t"],
      ["address", "1 Main St"],
      ["insured_name", "A & B"],
    ]);
  });

  it("puts the property id into the profile path and refuses anything but a positive whole number", () => {
    expect(pageUrl(base, { page: "property-profile", params: { property_id: 42 } }, "t")).toBe(
      `${base}/property-profile/42?jwt=t`,
    );
    for (const property_id of [0, -1, 1.5, "42/../x", ""]) {
      expect(() => pageUrl(base, { page: "property-profile", params: { property_id } }, "t")).toThrow(TypeError);
    }
  });

  it("builds the footprint selection address and ignores parameters the page does not take", () => {
    const params = {
      address: "2 Elm",
      callback_url: "https://core.example/hooks",
      external_id: "P-1",
      insured_name: "x",
    };
    expect(pageUrl(base, { page: "footprint-selection", params }, "t")).toBe(
      `${base}/embed/footprint-selection?jwt=t&address=2+Elm&callback_url=https%3A%2F%2Fcore.example%2Fhooks&external_id=P-1`,
    );
  });
});
