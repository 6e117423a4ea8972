import { describe, expect, it } from "vitest";
import type { GeoSource } from "../geo/store/spatial-filter.js";
import type { LonLat } from "../geo/types.js";
import { PRODUCTS } from "./index.js";
import { countyName } from "./location/county-names.js";
import { CENSUS_BOUNDARIES, NATURAL_EARTH_LAND } from "./location-product.js";

/** The location product reads no database: the boundaries ship with the service. */
const NO_DATABASE = {} as GeoSource;

const locate = (point: LonLat) => PRODUCTS.location(NO_DATABASE, { point, parcel: undefined });

describe("location product (us-atlas counties, Natural Earth land; no database)", () => {
  it("places the demo neighbourhood in Story County, Iowa (FIPS 19169, IA), far inland", async () => {
    const result = await locate([-93.38, 41.96]);
    expect(result.county).toEqual({ fips: "19169", name: "Story County" });
    expect(result.state).toEqual({ fips: "19", name: "Iowa", code: "IA" });
    expect(result.on_land).toBe(true);
    // Iowa is a long way from any sea; the Great Lakes are not sea (Natural Earth counts them as land).
    expect(result.coast_distance_m).toBeGreaterThan(400_000);
    expect(result.provenance).toEqual([CENSUS_BOUNDARIES, NATURAL_EARTH_LAND]);
    expect(Date.parse(result.computed_at)).not.toBeNaN();
  });

  it("places Cambridge, MA in Middlesex County (25017), a few kilometres from the coast", async () => {
    const result = await locate([-71.0805, 42.3713]);
    expect(result.county).toEqual({ fips: "25017", name: "Middlesex County" });
    expect(result.state).toEqual({ fips: "25", name: "Massachusetts", code: "MA" });
    expect(result.on_land).toBe(true);
    expect(result.coast_distance_m).toBeGreaterThan(0);
    expect(result.coast_distance_m).toBeLessThan(20_000);
  });

  it("gives a point at sea no county or state, and its distance to the shore", async () => {
    // Georges Bank waters, some 100 km east of Cape Cod.
    const result = await locate([-68.7, 41.8]);
    expect(result.county).toBeNull();
    expect(result.state).toBeNull();
    expect(result.on_land).toBe(false);
    expect(result.coast_distance_m).toBeGreaterThan(50_000);
    expect(result.coast_distance_m).toBeLessThan(200_000);
  });

  it("gives a point abroad no county or state (Paris)", async () => {
    const result = await locate([2.35, 48.86]);
    expect(result).toMatchObject({ county: null, state: null, on_land: true });
    expect(result.coast_distance_m).toBeGreaterThan(100_000);
  });

  it("names county equivalents as the Census Bureau does", async () => {
    expect(countyName("25017", "Middlesex")).toBe("Middlesex County");
    expect(countyName("22071", "Orleans")).toBe("Orleans Parish");
    expect(countyName("51760", "Richmond")).toBe("Richmond city");
    expect(countyName("51159", "Richmond")).toBe("Richmond County");
    expect(countyName("02020", "Anchorage")).toBe("Anchorage Municipality");
    expect(countyName("02090", "Fairbanks North Star")).toBe("Fairbanks North Star Borough");
    expect(countyName("72127", "San Juan")).toBe("San Juan Municipio");
    expect(countyName("11001", "District of Columbia")).toBe("District of Columbia");
    // And on the map: New Orleans, Louisiana.
    expect((await locate([-90.07, 29.95])).county).toEqual({ fips: "22071", name: "Orleans Parish" });
  });

  it("answers again from the boundaries already loaded", async () => {
    const started = performance.now();
    await locate([-93.38, 41.96]);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
