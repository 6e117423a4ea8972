import { describe, expect, it } from "vitest";
import { propertyIdFromPath } from "./property-id";

describe("propertyIdFromPath", () => {
  it("reads the property id from the profile's path", () => {
    expect(propertyIdFromPath("/property-profile/42")).toBe(42);
    expect(propertyIdFromPath("/property-profile/42/")).toBe(42);
  });

  it("refuses what is not a positive whole number", () => {
    for (const path of [
      "/property-profile/0",
      "/property-profile/-3",
      "/property-profile/4.2",
      "/property-profile/x",
    ]) {
      expect(propertyIdFromPath(path)).toBeUndefined();
    }
    expect(propertyIdFromPath("/property-profile/99999999999999999999")).toBeUndefined();
  });
});
