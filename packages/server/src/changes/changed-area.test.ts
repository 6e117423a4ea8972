import { describe, expect, it } from "vitest";
import { ChangedArea } from "./changed-area.js";

const lotAt = (lon: number, lat: number) => [lon, lat, lon + 0.0005, lat + 0.0005] as [number, number, number, number];

describe("ChangedArea", () => {
  it("meets the lots near a change and not those a few kilometres off", () => {
    const area = new ChangedArea();
    expect(area.empty).toBe(true);
    area.add(lotAt(-71.1, 42.37));
    expect(area.empty).toBe(false);
    expect(area.meets(lotAt(-71.1002, 42.3701))).toBe(true);
    expect(area.meets(lotAt(-71.05, 42.37))).toBe(false);
    expect(area.meets(lotAt(-71.1, 42.42))).toBe(false);
  });

  it("keeps a box too large for cells whole, and meets what it covers", () => {
    const area = new ChangedArea();
    area.add([-80, 30, -70, 40]);
    expect(area.meets(lotAt(-75, 35))).toBe(true);
    expect(area.meets(lotAt(-69, 35))).toBe(false);
    expect(area.extent).toEqual([-80, 30, -70, 40]);
  });

  it("grown by a reach, meets everything within it and still not what is far beyond", () => {
    const area = new ChangedArea();
    area.add(lotAt(-71.1, 42.37));
    const grown = area.grownBy(5_000);
    // About 4 km east and 4 km north: within 5 km; 20 km east is not.
    expect(grown.meets(lotAt(-71.05, 42.37))).toBe(true);
    expect(grown.meets(lotAt(-71.1, 42.406))).toBe(true);
    expect(grown.meets(lotAt(-70.85, 42.37))).toBe(false);
    // The original is left as it was.
    expect(area.meets(lotAt(-71.05, 42.37))).toBe(false);
  });

  it("grown by a reach too wide for cells, becomes one box around everything within it", () => {
    const area = new ChangedArea();
    for (let i = 0; i < 2000; i++) area.add(lotAt(-73 + (i % 50) * 0.05, 41 + Math.floor(i / 50) * 0.05));
    const grown = area.grownBy(50_000);
    const [west, , , north] = grown.extent ?? [];
    expect(west).toBeLessThan(-73.5);
    expect(north).toBeGreaterThan(43.4);
    expect(grown.meets(lotAt(-73.5, 41))).toBe(true);
    expect(grown.meets(lotAt(-70.2, 42))).toBe(true);
    expect(grown.meets(lotAt(-75, 41))).toBe(false);
    expect(grown.meets(lotAt(-69, 42))).toBe(false);
  });
});
