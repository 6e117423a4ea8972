import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFile } from "../geo/import/import-file.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../test/test-app.js";
import { createJobRunner } from "../workers/background-work.js";

const DATA = fileURLToPath(new URL("../../../../../shared/data/cambridge/", import.meta.url));
const PRESENT = existsSync(join(DATA, "assessor-fy2014.csv"));

describe.skipIf(!PRESENT)(
  `an order for a real Cambridge address${PRESENT ? "" : " — SKIPPED: ../shared/data/cambridge is missing"}`,
  () => {
    let test: TestApp;
    let tenant: TestTenant;
    let token: string;

    beforeAll(async () => {
      test = await createTestApp();
      const database = test.services.database;
      await importFile(database, { kind: "parcels", file: join(DATA, "parcels-fy2014.topojson"), idField: "ML" });
      await importFile(database, { kind: "buildings", file: join(DATA, "buildings-east-cambridge/Buildings.shp") });
      await importFile(database, {
        kind: "addresses",
        file: join(DATA, "assessor-fy2014.csv"),
        addressColumn: "Location",
        joinParcel: "ML",
        city: "Cambridge",
        state: "MA",
      });
      await importFile(database, {
        kind: "layer",
        file: join(DATA, "layers/fire-stations.geojson"),
        name: "Fire stations",
        provider: "City of Cambridge GIS",
        license: "PDDL 1.0",
      });
      tenant = await createTenant(test.services);
      token = await accessTokenFor(test, tenant);
    }, 120_000);
    afterAll(() => test.close());

    it("completes 120 Gore Street with its parcel, house and outbuilding, and the nearest fire station", async () => {
      const placed = await test.app.inject({
        method: "POST",
        url: "/v1/orders",
        headers: { authorization: `Bearer ${token}` },
        payload: { address: "120 Gore Street, Cambridge, MA", external_id: "CAM-120-GORE" },
      });
      expect(placed.statusCode).toBe(202);
      await createJobRunner(test.services).drain();

      const { property_id } = placed.json();
      const record = (
        await test.app.inject({ url: `/v1/properties/${property_id}`, headers: { authorization: `Bearer ${token}` } })
      ).json();
      expect(record.orders[0].status).toBe("complete");
      expect(record.address).toBe("120 GORE ST, CAMBRIDGE, MA");
      expect(record.parcel.source_id).toBe("23-7");
      expect(record.parcel.provenance[0].dataset).toBe("parcels-fy2014");
      const types = record.buildings.map((building: { attributes: { TYPE: string } }) => building.attributes.TYPE);
      expect(types.sort()).toEqual(["BLDG", "OUTBLDG"]);
      expect(record.data.structures.primary_building_id).toBe(record.buildings[0].building_id);
      expect(record.data.location.county.name).toBe("Middlesex County");
      expect(record.data.location.state.code).toBe("MA");
      const station = record.third_party.layers.find((layer: { dataset?: string; name?: string }) =>
        JSON.stringify(layer).includes("Fire stations"),
      );
      expect(station.nearest.distance_m).toBeLessThan(2000);
      expect(station.nearest.attributes.SITE_NAME).toBeTruthy();
    });
  },
);
