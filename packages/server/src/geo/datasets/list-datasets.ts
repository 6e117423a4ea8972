import type { Database } from "../../db/database.js";
import type { DatasetKind, DatasetNamespace } from "../../db/schema.js";
import type { BBox } from "../types.js";
import { extentOf } from "./dataset-extent.js";

/** One line of `lotline datasets list`. */
export interface DatasetListing {
  name: string;
  kind: DatasetKind;
  namespace: DatasetNamespace;
  provider: string | null;
  license: string | null;
  vintage: string | null;
  /** Rows the dataset holds now: parcels, buildings, addresses or layer features. */
  records: number;
  /** Layers only: `polygon` or `point`. */
  geometry_kind: "polygon" | "point" | null;
  /** When its latest import finished (ISO 8601). */
  imported_at: string | null;
  /** `[minLon, minLat, maxLon, maxLat]` of every row, WGS 84; null when it holds none. */
  extent: BBox | null;
}

/** Every dataset, by namespace, kind and name, with what it holds (counted when its latest import ended) and where. */
export async function listDatasets({ db }: Database): Promise<DatasetListing[]> {
  const datasets = await db
    .selectFrom("datasets")
    .selectAll()
    .select((eb) =>
      eb
        .selectFrom("imports")
        .select((sub) => sub.fn.max("imports.finished_at").as("finished_at"))
        .whereRef("imports.dataset_id", "=", "datasets.dataset_id")
        .as("imported_at"),
    )
    .orderBy("namespace")
    .orderBy("kind")
    .orderBy("name")
    .execute();
  return datasets.map((row) => ({
    name: row.name,
    kind: row.kind,
    namespace: row.namespace,
    provider: row.provider,
    license: row.license,
    vintage: row.vintage,
    records: Number(row.record_count),
    geometry_kind: row.geometry_kind,
    imported_at: row.imported_at === null ? null : new Date(Number(row.imported_at)).toISOString(),
    extent: extentOf(row),
  }));
}
