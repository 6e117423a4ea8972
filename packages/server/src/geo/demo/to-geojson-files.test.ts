import { describe, expect, it } from "vitest";
import { DEMO_DATASET, generateNeighbourhood, toGeoJsonFiles } from "./index.js";

describe("toGeoJsonFiles", () => {
  const town = generateNeighbourhood({ blocks: 2 });
  const files = toGeoJsonFiles(town);

  it("writes one labelled FeatureCollection per layer and the addresses", () => {
    expect(Object.keys(files).sort()).toEqual(
      ["addresses", "buildings", "fire-stations", "flood-zones", "hydrants", "parcels", "streets"].sort(),
    );
    const layers = {
      parcels: town.parcels,
      buildings: town.buildings,
      "flood-zones": town.floodZones,
      "fire-stations": town.fireStations,
      hydrants: town.hydrants,
    };
    for (const [name, features] of Object.entries(layers)) {
      const file = files[name as keyof typeof layers];
      expect(file).toMatchObject({ type: "FeatureCollection", name, dataset: DEMO_DATASET });
      expect(file.features).toEqual(features);
    }
    expect(files.addresses).toEqual({ dataset: DEMO_DATASET, addresses: town.addresses });
  });

  it("turns streets into LineString features that say they are generated", () => {
    expect(files.streets.features).toHaveLength(town.streets.length);
    const main = files.streets.features.find((f) => f.properties?.full === "N MAIN ST");
    expect(main?.geometry.type).toBe("LineString");
    expect(main?.properties).toMatchObject({ name: "MAIN", directional: "N", suffix: "ST", generated: true });
  });

  it("survives a JSON round trip unchanged", () => {
    expect(JSON.parse(JSON.stringify(files))).toEqual(files);
  });
});
