import { describe, expect, it } from "vitest";
import { diffRecords } from "./record-diff.js";

const building = (building_id: number, area_m2: number) => ({
  building_id,
  source_id: `B${building_id}`,
  footprint: {
    type: "Polygon",
    coordinates: [
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 0],
      ],
    ],
  },
  area_m2,
});

const record = (overrides: Record<string, unknown> = {}) => ({
  products: {
    parcel: {
      area_m2: 500,
      boundary: {
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [2, 0],
            [2, 2],
            [0, 0],
          ],
        ],
      },
      computed_at: "2026-01-01T00:00:00Z",
    },
    structures: { count: 2, structures: [building(17, 212.4), building(18, 40)], computed_at: "2026-01-01T00:00:00Z" },
    exposure: {
      nearest_m: 12.5,
      computed_at: "2026-01-01T00:00:00Z",
      provenance: [{ dataset: "Lots", imported_at: "2026-01-01T00:00:00Z" }],
    },
    ...overrides,
  },
});

describe("diffRecords", () => {
  it("finds no change in a record computed again from the same data, whenever computed or imported", () => {
    const again = record({
      exposure: {
        nearest_m: 12.5,
        computed_at: "2026-11-26T10:00:00Z",
        provenance: [{ dataset: "Lots", imported_at: "2026-11-26T09:00:00Z" }],
      },
    });
    expect(diffRecords(record(), again)).toEqual([]);
  });

  it("names a building by its id and a product's figure under data", () => {
    const after = record({
      structures: { count: 2, structures: [building(17, 230.1), building(18, 40)], computed_at: "x" },
      exposure: { nearest_m: 9, computed_at: "x", provenance: [{ dataset: "Lots" }] },
    });
    expect(diffRecords(record(), after)).toEqual([
      { path: "buildings[building_id=17].area_m2", before: 212.4, after: 230.1 },
      { path: "data.exposure.nearest_m", before: 12.5, after: 9 },
    ]);
  });

  it("reports a building gone or new whole, and a changed geometry whole", () => {
    const moved = {
      ...building(18, 40),
      footprint: {
        type: "Polygon",
        coordinates: [
          [
            [5, 5],
            [6, 5],
            [6, 6],
            [5, 5],
          ],
        ],
      },
    };
    const after = record({ structures: { count: 2, structures: [moved, building(19, 8)], computed_at: "x" } });
    const changes = diffRecords(record(), after);
    expect(changes.map((change) => change.path)).toEqual([
      "buildings[building_id=17]",
      "buildings[building_id=18].footprint",
      "buildings[building_id=19]",
    ]);
    expect(changes[0]).toMatchObject({ before: { building_id: 17 }, after: null });
    expect(changes[1]?.after).toEqual(moved.footprint);
    expect(changes[2]).toMatchObject({ before: null, after: { building_id: 19, area_m2: 8 } });
  });

  it("lists every figure of a first record as new", () => {
    const changes = diffRecords(null, record());
    expect(changes.find((change) => change.path === "parcel")).toMatchObject({ before: null, after: { area_m2: 500 } });
  });
});
