import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { importFile } from "../import/import-file.js";
import type { Building } from "../store/geo-rows.js";
import { buildingShapes } from "../store/parsed-shapes.js";
import { readBuildings } from "../store/read-spatial-rows.js";
import { buildingsNear } from "./buildings-near.js";
import { neighboursAround } from "./neighbours-around.js";

const BUILDINGS = fileURLToPath(
  new URL("../../../../../../shared/data/cambridge/buildings-east-cambridge/Buildings.shp", import.meta.url),
);
const ZONES = [10, 30, 100];

describe.skipIf(!existsSync(BUILDINGS))("the buildings around one, on East Cambridge's footprints", () => {
  let testDatabase: TestDatabase;
  let buildings: Building[];
  const source = () => testDatabase.database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    await importFile(source(), { kind: "buildings", file: BUILDINGS, name: "East Cambridge" });
    buildings = await readBuildings(source(), (query) => query.orderBy("building_id"));
  }, 120_000);

  afterAll(async () => {
    await testDatabase?.destroy();
  });

  /** What measuring every building within the widest zone answers. */
  async function measuredAround(building: Building) {
    const hits = (await buildingsNear(source(), building.footprint, Math.max(...ZONES))).filter(
      (hit) => hit.building.buildingId !== building.buildingId,
    );
    const [nearest] = hits;
    return {
      within: ZONES.map((zone) => hits.filter((hit) => hit.distanceM <= zone).length),
      nearest: nearest && { buildingId: nearest.building.buildingId, distanceM: nearest.distanceM },
      datasetIds: hits.map((hit) => hit.building.datasetId).sort(),
    };
  }

  it("answers as measuring each neighbour does, for every building in the city's sample", async () => {
    const sample = buildings.filter((_, i) => i % 7 === 0);
    expect(sample.length).toBeGreaterThan(100);
    const differing = [];
    for (const building of sample) {
      const around = await neighboursAround(source(), building, ZONES);
      const answer = {
        within: around.within,
        nearest: around.nearest && {
          buildingId: around.nearest.building.buildingId,
          distanceM: around.nearest.distanceM,
        },
        datasetIds: [...around.datasetIds].sort(),
      };
      const measured = await measuredAround(building);
      if (JSON.stringify(answer) !== JSON.stringify(measured))
        differing.push({ id: building.buildingId, answer, measured });
    }
    expect(differing).toEqual([]);
  });

  it("reads and parses the footprints only of the neighbours whose boxes leave the answer open", async () => {
    const building = buildings[Math.floor(buildings.length / 2)] as Building;
    const measured = await measuredAround(building);
    expect(measured.within[2]).toBeGreaterThan(30);
    const rows = await source().db.selectFrom("buildings").select(["building_id", "import_id"]).execute();
    buildingShapes.clear();
    await neighboursAround(source(), building, ZONES);
    const parsed = rows.filter((row) => buildingShapes.get(row.building_id, row.import_id) !== undefined);
    expect(parsed.length).toBeLessThan((measured.within[2] as number) / 2);
  });
});
