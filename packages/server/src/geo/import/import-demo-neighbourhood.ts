import type { Database } from "../../db/database.js";
import { generateNeighbourhood } from "../demo/index.js";
import type { Feature, Geometry, SourceRecord } from "../types.js";
import { addressImporter } from "./address-importer.js";
import { buildingImporter } from "./building-importer.js";
import { layerImporter } from "./layer-importer.js";
import { parcelImporter } from "./parcel-importer.js";
import { type DatasetInfo, type Importer, runImport } from "./run-import.js";

/** Layer names of the demo; the last one imported tells a later start that the demo data is complete. */
export const DEMO_LAYERS = {
  floodZones: "Generated demo flood zones",
  fireStations: "Generated demo fire stations",
  hydrants: "Generated demo hydrants",
};

/**
 * Loads the generated demo neighbourhood through the same importers as real data, unless it is already there.
 * Every dataset says "generated" in its name, provider and licence, and lives in the `demo` namespace, apart from
 * everything an operator imports. Each import is idempotent, so a start that
 * died halfway simply loads it all again. Returns whether anything was loaded.
 */
export async function importDemoNeighbourhood(database: Database): Promise<boolean> {
  const complete = await database.db
    .selectFrom("datasets")
    .select("dataset_id")
    .where("kind", "=", "layer")
    .where("name", "=", DEMO_LAYERS.hydrants)
    .executeTakeFirst();
  if (complete) return false;

  const town = generateNeighbourhood();
  const provenance = { provider: town.dataset.provider, license: town.dataset.license, vintage: town.dataset.vintage };
  const load = (
    kind: DatasetInfo["kind"],
    name: string,
    features: Feature<Geometry | null>[],
    importer: Importer<unknown>,
  ) => runImport(database, { kind, name, namespace: "demo", ...provenance }, "generated", records(features), importer);

  await load("parcels", town.dataset.name, town.parcels, parcelImporter({ idField: "parcel_id" }));
  await load("buildings", town.dataset.name, town.buildings, buildingImporter({ idField: "building_id" }));
  const addresses = town.addresses.map((address) => ({
    type: "Feature" as const,
    geometry: null,
    properties: {
      parcel_id: address.parcel_id,
      address: `${address.number} ${address.street}${address.unit ? ` UNIT ${address.unit}` : ""}, ${address.city}, ${address.state} ${address.postcode}`,
    },
  }));
  await load(
    "addresses",
    town.dataset.name,
    addresses,
    addressImporter({ addressColumn: "address", joinParcel: "parcel_id" }),
  );
  await load("layer", DEMO_LAYERS.floodZones, town.floodZones, layerImporter({}));
  await load("layer", DEMO_LAYERS.fireStations, town.fireStations, layerImporter({}));
  await load("layer", DEMO_LAYERS.hydrants, town.hydrants, layerImporter({}));
  return true;
}

async function* records(features: Feature<Geometry | null>[]): AsyncIterable<SourceRecord> {
  for (const [index, feature] of features.entries()) {
    yield { number: index + 1, feature: { ...feature, properties: { ...feature.properties } } };
  }
}
