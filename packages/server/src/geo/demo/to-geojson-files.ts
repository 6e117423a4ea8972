import type { Feature, FeatureCollection, Geometry } from "geojson";
import type { DemoAddress, DemoDataset, DemoNeighbourhood } from "./types.js";

/** A FeatureCollection that carries the dataset's description as a foreign member (RFC 7946 §6.1). */
export type LabelledCollection = FeatureCollection & { name: string; dataset: DemoDataset };

export interface DemoFiles extends Record<string, object> {
  parcels: LabelledCollection;
  buildings: LabelledCollection;
  streets: LabelledCollection;
  "flood-zones": LabelledCollection;
  "fire-stations": LabelledCollection;
  hydrants: LabelledCollection;
  addresses: { dataset: DemoDataset; addresses: DemoAddress[] };
}

/**
 * The neighbourhood as files, keyed by name without extension: a FeatureCollection per layer (streets too, as
 * LineStrings with their names and widths) and the addresses as `{ dataset, addresses }`. Each one carries the
 * dataset's description, so a file read on its own still says it is generated.
 *
 * @example
 * for (const [name, body] of Object.entries(toGeoJsonFiles(generateNeighbourhood())))
 *   writeFileSync(`${name}.json`, JSON.stringify(body));
 */
export function toGeoJsonFiles(n: DemoNeighbourhood): DemoFiles {
  const collection = (name: string, features: Feature<Geometry, object>[]): LabelledCollection => ({
    type: "FeatureCollection",
    name,
    dataset: n.dataset,
    features,
  });
  return {
    parcels: collection("parcels", n.parcels),
    buildings: collection("buildings", n.buildings),
    streets: collection(
      "streets",
      n.streets.map(({ line, ...properties }) => ({
        type: "Feature",
        properties: { ...properties, generated: true },
        geometry: line,
      })),
    ),
    "flood-zones": collection("flood-zones", n.floodZones),
    "fire-stations": collection("fire-stations", n.fireStations),
    hydrants: collection("hydrants", n.hydrants),
    addresses: { dataset: n.dataset, addresses: n.addresses },
  };
}
