import type { Insertable } from "kysely";
import type { Schema } from "../../db/schema.js";
import { bboxColumns } from "../store/spatial-filter.js";
import type { AttributeColumns } from "../store/stored-attributes.js";
import { measure, type PreparedArea, type PreparedAreas, settleAgainstStored } from "./area-batch.js";
import { AreaPreparer } from "./area-preparer.js";
import { type Owner, ParcelAssigner } from "./assign-buildings.js";
import { DeferredSpatialIndex } from "./deferred-spatial-index.js";
import { type OtherDatasets, otherDatasets, rejectDuplicates } from "./duplicate-areas.js";
import type { ImportThreadOptions } from "./import-threads.js";
import type { ImportContext, Importer } from "./run-import.js";
import { SpaceOrderedWrites } from "./space-ordered-writes.js";
import { UpdatedPieces } from "./updated-pieces.js";
import { WrittenIds } from "./written-ids.js";

export interface BuildingImportOptions {
  /**
   * The feature property holding the building's own id. Without one, a building is known by its feature number
   * (`#12`), which stays the same only when the same file is imported again.
   */
  idField?: string;
  /**
   * Threads that validate and measure the footprints and find their parcels while the main thread reads and
   * writes; none by default.
   */
  threads?: ImportThreadOptions;
}

/**
 * Building footprints: upserted by (dataset, source id), each assigned the parcel holding most of it. On threads,
 * each batch is validated, measured and its parcels found there, while later batches are read and earlier ones
 * written; otherwise here, and the parcels then only for the footprints that changed.
 */
export function buildingImporter({ idField, threads }: BuildingImportOptions): Importer<PreparedAreas> {
  const preparer = new AreaPreparer({ ids: { kind: "buildings", idField } }, { threads, owners: true });
  let others: OtherDatasets | undefined;
  let assigner: ParcelAssigner | undefined;
  let spatialIndex: Promise<DeferredSpatialIndex | undefined> | undefined;
  let writtenIds: WrittenIds | undefined;
  const pieces = new UpdatedPieces();
  const written = new SpaceOrderedWrites<Insertable<Schema["buildings"]>>((context, rows) =>
    context.rows.insert("buildings", rows, ["dataset_id", "source_id"]),
  );
  return {
    columns: idField === undefined ? [] : [idField],
    ahead: preparer.ahead,
    // Its rows fall all over the unique index of (dataset, source id): each 50-row insert journals a page a row.
    statementJournalsInMemory: true,
    prepare: (_context, batch) => preparer.prepare(batch),
    async importBatch(context: ImportContext, { prepared, outcomes }) {
      spatialIndex ??= DeferredSpatialIndex.begin(context, "buildings");
      await spatialIndex;
      others ??= await otherDatasets(context, "buildings");
      await rejectDuplicates(context, "buildings", others, prepared, outcomes);
      // Into a dataset that held nothing, a stored row of an id can only be one this import wrote.
      writtenIds ??= context.heldRecords ? undefined : new WrittenIds();
      await settleAgainstStored(context, "buildings", prepared, outcomes, written, writtenIds, pieces);

      assigner ??= new ParcelAssigner({ db: context.trx, dialect: context.dialect });
      const areas = [...prepared.values()].filter((area) => area.positions.length > 0);
      const owners = await ownersOf(assigner, areas);
      const attributes = await context.attributeKeys.columnsOf(areas.map((area) => area.attributes));
      for (const [i, area] of areas.entries()) {
        const owner = owners[i];
        const { bytes, box, areaM2 } = measure(area);
        const row = {
          dataset_id: context.datasetId,
          source_id: area.sourceId,
          footprint: bytes,
          ...(attributes[i] as AttributeColumns),
          area_m2: areaM2,
          ...bboxColumns(box),
          parcel_id: owner?.parcelId ?? null,
          parcel_share: owner?.share ?? null,
          import_id: context.importId,
          updated_at: context.now,
        };
        written.hold(row, area.sourceId, box, bytes.length);
      }
      return outcomes;
    },
    whileWaiting: async (context: ImportContext) => (await spatialIndex)?.catchUp(context),
    async finish(context: ImportContext) {
      await written.writeAll(context);
      await (await spatialIndex)?.end(context);
    },
    updatedButUnchanged: (context: ImportContext) => pieces.unchangedAfterAll(context, "buildings"),
    close: () => preparer.close(),
  };
}

/** Each area's parcel: as a thread found it, else found now (the rest in one go). */
async function ownersOf(assigner: ParcelAssigner, areas: PreparedArea[]): Promise<Owner[]> {
  const unknown = areas.filter((area) => area.owner === undefined);
  const found = await assigner.owningParcels(unknown.map((area) => area.geometry));
  const foundOf = new Map(unknown.map((area, i) => [area, found[i]]));
  return areas.map((area) => (area.owner === undefined ? foundOf.get(area) : (area.owner ?? undefined)));
}
