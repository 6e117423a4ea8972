import { bboxOf, geodesicArea } from "../geometry/index.js";
import { bboxColumns } from "../store/spatial-filter.js";
import { encodeWkb } from "../store/wkb.js";
import { idFrom, type PreparedArea, type PreparedAreas, prepareAreas, settleAgainstStored } from "./area-batch.js";
import { type Owner, ParcelAssigner } from "./assign-buildings.js";
import { type OtherDatasets, otherDatasets, rejectDuplicates } from "./duplicate-areas.js";
import { type ImportThreadOptions, ImportThreads } from "./import-threads.js";
import { replaceFromExcluded } from "./replace-from-excluded.js";
import type { ImportContext, Importer } from "./run-import.js";

export interface BuildingImportOptions {
  /**
   * The feature property holding the building's own id. Without one, a building is known by its feature number
   * (`#12`), which stays the same only when the same file is imported again.
   */
  idField?: string;
  /** Threads that find the footprints' parcels while the main thread reads and writes; none by default. */
  threads?: ImportThreadOptions;
}

/**
 * Building footprints: upserted by (dataset, source id), each assigned the parcel holding most of it. On threads,
 * each batch's parcels are found there as soon as it is validated, while later batches are read and earlier ones
 * written; otherwise here, and then only for the footprints that changed.
 */
export function buildingImporter({ idField, threads }: BuildingImportOptions): Importer<PreparedAreas> {
  // Started with the first batch: an import refused before reading any leaves no thread behind.
  let onThreads: ImportThreads<Uint8Array[], Array<Owner | null>> | undefined;
  let others: OtherDatasets | undefined;
  let assigner: ParcelAssigner | undefined;
  return {
    columns: idField === undefined ? [] : [idField],
    // A batch for each thread to work on, and one for this thread to read meanwhile.
    ahead: threads ? threads.count + 1 : 0,
    async prepare(_context, batch) {
      const areas = prepareAreas(batch, (record) => idFrom(record, idField));
      if (threads) {
        onThreads ??= new ImportThreads(threads, { kind: "parcels-of-footprints" });
        const prepared = [...areas.prepared.values()];
        // As WKB: arrays copied between threads arrive as boxed numbers, which the overlap reads 2.5 × as slowly.
        const owners = await onThreads.run(prepared.map((area) => encodeWkb(area.geometry)));
        for (const [i, area] of prepared.entries()) area.owner = owners[i] ?? null;
      }
      return areas;
    },
    async importBatch(context: ImportContext, { prepared, outcomes }) {
      others ??= await otherDatasets(context, "buildings");
      await rejectDuplicates(context, "buildings", others, prepared, outcomes);
      await settleAgainstStored(context, "buildings", prepared, outcomes);

      assigner ??= new ParcelAssigner({ db: context.trx, dialect: context.dialect });
      const areas = [...prepared.values()].filter((area) => area.positions.length > 0);
      const owners = await ownersOf(assigner, areas);
      const rows = areas.map((area, i) => {
        const owner = owners[i];
        return {
          dataset_id: context.datasetId,
          source_id: area.sourceId,
          footprint: encodeWkb(area.geometry),
          attributes: JSON.stringify(area.attributes),
          area_m2: geodesicArea(area.geometry),
          ...bboxColumns(bboxOf(area.geometry)),
          parcel_id: owner?.parcelId ?? null,
          parcel_share: owner?.share ?? null,
          import_id: context.importId,
          updated_at: context.now,
        };
      });
      if (rows.length > 0) {
        await context.trx
          .insertInto("buildings")
          .values(rows)
          .onConflict((conflict) =>
            conflict
              .columns(["dataset_id", "source_id"])
              .doUpdateSet(
                replaceFromExcluded([
                  "footprint",
                  "attributes",
                  "area_m2",
                  "min_lon",
                  "min_lat",
                  "max_lon",
                  "max_lat",
                  "parcel_id",
                  "parcel_share",
                  "import_id",
                  "updated_at",
                ]),
              ),
          )
          .execute();
      }
      return outcomes;
    },
    async close() {
      await onThreads?.stop();
    },
  };
}

/** Each area's parcel: as a thread found it, else found now (the rest in one go). */
async function ownersOf(assigner: ParcelAssigner, areas: PreparedArea[]): Promise<Owner[]> {
  const unknown = areas.filter((area) => area.owner === undefined);
  const found = await assigner.owningParcels(unknown.map((area) => area.geometry));
  const foundOf = new Map(unknown.map((area, i) => [area, found[i]]));
  return areas.map((area) => (area.owner === undefined ? foundOf.get(area) : (area.owner ?? undefined)));
}
