import { extentOf } from "../geo/datasets/dataset-extent.js";
import type { GeoSource } from "../geo/store/spatial-filter.js";
import type { BBox } from "../geo/types.js";
import type { Provenance } from "./product.js";
import { readOnce, type SharedReadsSource, sharesReads } from "./shared-reads.js";

/** The provenance of a boundary the user drew in the order. */
export const USER_DRAWN: Provenance = { dataset: "user drawn", provider: "user", license: null, vintage: null };

/** An imported dataset with its provenance, as the datasets and imports tables hold them. */
export interface DatasetProvenance {
  datasetId: number;
  kind: string;
  geometryKind: "polygon" | "point" | null;
  /** The box of the dataset's rows; null while it holds none. */
  extent: BBox | null;
  /** How many rows it holds. */
  recordCount: number;
  provenance: Provenance;
}

/**
 * The provenance of imported datasets, in the order of `datasetIds` (repeats dropped): name, provider, licence,
 * vintage and when the dataset's latest import finished.
 */
export async function provenanceOf(source: GeoSource, datasetIds: readonly number[]): Promise<Provenance[]> {
  const ids = [...new Set(datasetIds)];
  if (ids.length === 0) return [];
  const rows = sharesReads(source)
    ? await allDatasets(source)
    : await datasets(source, (query) => query.where("dataset_id", "in", ids));
  const byId = new Map(rows.map((row) => [row.datasetId, row.provenance]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Every imported layer with its provenance and geometry kind, by name. */
export async function layerDatasets(source: GeoSource): Promise<DatasetProvenance[]> {
  if (sharesReads(source)) return (await allDatasets(source)).filter(isLayer);
  return datasets(source, (query) => query.where("kind", "=", "layer"));
}

/** Every dataset, read once for all the products of an order: a handful costs less to read whole than four times. */
function allDatasets(source: GeoSource): Promise<DatasetProvenance[]> {
  return readOnce(source, "datasets", () => datasets(source, (query) => query));
}

/**
 * Starts reading the dataset catalog once for everything computed through `source`, so that it is under way while
 * other work waits on the database. A failure reaches whoever then awaits the read; unread, it is dropped.
 */
export function readDatasetsAhead(source: SharedReadsSource): void {
  allDatasets(source).catch(() => {});
}

function isLayer(dataset: DatasetProvenance): boolean {
  return dataset.kind === "layer";
}

type DatasetQuery = ReturnType<typeof selectDatasets>;

function selectDatasets({ db }: GeoSource) {
  return db
    .selectFrom("datasets")
    .select([
      "dataset_id",
      "kind",
      "name",
      "provider",
      "license",
      "vintage",
      "geometry_kind",
      "min_lon",
      "min_lat",
      "max_lon",
      "max_lat",
      "record_count",
    ])
    .select((eb) =>
      eb
        .selectFrom("imports")
        .select((sub) => sub.fn.max("imports.finished_at").as("finished_at"))
        .whereRef("imports.dataset_id", "=", "datasets.dataset_id")
        .as("imported_at"),
    );
}

async function datasets(source: GeoSource, where: (query: DatasetQuery) => DatasetQuery) {
  const rows = await where(selectDatasets(source)).orderBy("name").orderBy("dataset_id").execute();
  return rows.map(
    (row): DatasetProvenance => ({
      datasetId: row.dataset_id,
      kind: row.kind,
      geometryKind: row.geometry_kind,
      extent: extentOf(row),
      recordCount: Number(row.record_count),
      provenance: {
        dataset: row.name,
        provider: row.provider,
        license: row.license,
        vintage: row.vintage,
        imported_at: row.imported_at === null ? null : new Date(Number(row.imported_at)).toISOString(),
      },
    }),
  );
}
