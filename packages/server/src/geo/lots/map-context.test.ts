import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { importDemoNeighbourhood } from "../import/import-demo-neighbourhood.js";
import { mapContext } from "./map-context.js";

describe("mapContext", () => {
  let test: TestDatabase;
  let extent: [number, number, number, number];

  beforeAll(async () => {
    test = await createTestDatabase();
    await importDemoNeighbourhood(test.database);
    const row = await test.database.db
      .selectFrom("parcels")
      .select((eb) => [
        eb.fn.min("min_lon").as("west"),
        eb.fn.min("min_lat").as("south"),
        eb.fn.max("max_lon").as("east"),
        eb.fn.max("max_lat").as("north"),
      ])
      .executeTakeFirstOrThrow();
    extent = [row.west, row.south, row.east, row.north].map(Number) as [number, number, number, number];
  });
  afterAll(() => test.destroy());

  it("carries at most the limit per collection, says it truncated, and attributes only what it shows", async () => {
    const capped = await mapContext(test.database, extent, 7);
    expect(capped.parcels.features).toHaveLength(7);
    expect(capped.buildings.features).toHaveLength(7);
    expect(capped.layers.features.length).toBeLessThanOrEqual(7);
    expect(capped.truncated).toBe(true);
    const ids = capped.parcels.features.map((feature) => feature.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const whole = await mapContext(test.database, extent);
    expect(whole.truncated).toBe(false);
    expect(whole.parcels.features.slice(0, 7)).toEqual(capped.parcels.features);
    expect(whole.parcels.features.length).toBeGreaterThan(7);
  });

  it("is not truncated when the box holds exactly the limit", async () => {
    const whole = await mapContext(test.database, extent);
    const exactly = await mapContext(test.database, extent, whole.parcels.features.length);
    expect(exactly.parcels.features).toHaveLength(whole.parcels.features.length);
    expect(exactly.buildings.features.length).toBeLessThanOrEqual(whole.parcels.features.length);
  });
});
