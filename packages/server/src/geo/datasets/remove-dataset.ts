import type { Transaction } from "kysely";
import { ChangedArea } from "../../changes/changed-area.js";
import { queueRecomputation } from "../../changes/queue-recomputation.js";
import type { Database, Dialect } from "../../db/database.js";
import type { DatasetKind, DatasetNamespace, Schema } from "../../db/schema.js";
import { InvalidInputError, NotFoundError } from "../../errors.js";
import { reassignBuildings } from "../import/assign-buildings.js";
import { coverageOf } from "./coverage.js";
import { extentOf, TABLE_OF_KIND } from "./dataset-extent.js";
import type { DatasetStage } from "./dataset-stage.js";
import { takeNamespaceParcels } from "./namespace-parcels-lock.js";

export interface RemovedDataset {
  name: string;
  kind: DatasetKind;
  /** Rows the dataset held. */
  removed: number;
  /** Property records within its coverage, queued to be computed again without it. */
  properties_to_recompute: number;
}

/**
 * `lotline datasets remove NAME`: deletes the dataset and everything imported into it, in one transaction, and
 * queues every property record in its coverage to be computed again (the `recompute_property` job), so no record
 * keeps showing data that is gone. `onStage` hears which of that work is under way: at a state's size it takes
 * minutes.
 */
export async function removeDataset(
  database: Database,
  name: string,
  kind?: DatasetKind,
  onStage: (stage: DatasetStage) => void = () => {},
): Promise<RemovedDataset> {
  return database.db.transaction().execute(async (trx) => {
    const dataset = await trx
      .selectFrom("datasets")
      .select(["dataset_id", "kind", "name"])
      .where("name", "=", name)
      .$if(kind !== undefined, (query) => query.where("kind", "=", kind as DatasetKind))
      .orderBy("dataset_id")
      .execute();
    const [only, ...others] = dataset;
    if (!only) {
      const what = kind ? `${kind} dataset` : "dataset";
      throw new NotFoundError("dataset_not_found", `no ${what} "${name}"; lotline datasets list shows them`);
    }
    if (others.length > 0) {
      throw new InvalidInputError(
        "dataset_ambiguous",
        `"${name}" names datasets of several kinds (${dataset.map((row) => row.kind).join(", ")}); give --kind`,
      );
    }
    onStage("deleting");
    const removed = await removeDatasetRows({ trx, dialect: database.dialect }, only.dataset_id, onStage);
    onStage("committing");
    return { name: only.name, kind: only.kind, ...removed };
  });
}

/**
 * Deletes a dataset and its rows inside the caller's transaction, reassigns buildings that lose their parcel, and
 * queues the property records within its coverage for recomputation; `onStage` hears when the buildings are
 * reassigned.
 *
 * On PostgreSQL the dataset's row is locked first: an import into the dataset holds it from its start, so the
 * removal waits for that import to end and then deletes the rows it wrote too. No foreign key does it for them
 * there (migration 0023).
 */
export async function removeDatasetRows(
  { trx, dialect }: { trx: Transaction<Schema>; dialect: Dialect },
  datasetId: number,
  onStage: (stage: DatasetStage) => void = () => {},
): Promise<Omit<RemovedDataset, "name" | "kind">> {
  const dataset = await trx
    .selectFrom("datasets")
    .selectAll()
    .where("dataset_id", "=", datasetId)
    .$if(dialect === "postgres", (query) => query.forUpdate())
    .executeTakeFirstOrThrow();
  if (dataset.kind === "parcels") await clearAddressParcels({ trx, dialect }, dataset);
  const extent = extentOf(dataset);
  const coverage = new ChangedArea();
  if (extent) coverage.add(coverageOf(extent));
  const properties_to_recompute = await queueRecomputation({ trx, dialect }, coverage);
  const deleted = await trx
    .deleteFrom(TABLE_OF_KIND[dataset.kind])
    .where("dataset_id", "=", datasetId)
    .executeTakeFirst();
  await trx.deleteFrom("imports").where("dataset_id", "=", datasetId).execute();
  await trx.deleteFrom("datasets").where("dataset_id", "=", datasetId).execute();
  // Buildings of the removed parcels may now belong to a parcel of another dataset.
  if (dataset.kind === "parcels" && extent) {
    const removed = new ChangedArea();
    removed.add(extent);
    onStage("reassigning");
    await reassignBuildings({ trx, dialect }, removed);
  }
  return { removed: Number(deleted.numDeletedRows), properties_to_recompute };
}

/**
 * Takes the parcels of a parcel dataset from the addresses joined to them, which are then found by their points, as
 * an address is that was joined to no parcel. PostgreSQL checks no address's parcel by foreign key (migration
 * 0024), so the removal first waits for the address imports joining addresses to the namespace's parcels.
 */
async function clearAddressParcels(
  { trx, dialect }: { trx: Transaction<Schema>; dialect: Dialect },
  dataset: { dataset_id: number; namespace: DatasetNamespace },
): Promise<void> {
  await takeNamespaceParcels({ trx, dialect }, dataset.namespace);
  await trx
    .updateTable("addresses")
    .set({ parcel_id: null })
    .where("parcel_id", "in", (eb) =>
      eb.selectFrom("parcels").select("parcel_id").where("dataset_id", "=", dataset.dataset_id),
    )
    .execute();
}
