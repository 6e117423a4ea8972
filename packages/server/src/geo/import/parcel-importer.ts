import type { Insertable } from "kysely";
import type { Schema } from "../../db/schema.js";
import { bboxColumns } from "../store/spatial-filter.js";
import type { AttributeColumns } from "../store/stored-attributes.js";
import { measure, type PreparedAreas, settleAgainstStored } from "./area-batch.js";
import { AreaPreparer } from "./area-preparer.js";
import { reassignBuildings } from "./assign-buildings.js";
import { DeferredSpatialIndex } from "./deferred-spatial-index.js";
import { type OtherDatasets, otherDatasets, rejectDuplicates } from "./duplicate-areas.js";
import type { ImportThreadOptions } from "./import-threads.js";
import type { BatchRecord, ImportContext, Importer } from "./run-import.js";
import { SpaceOrderedWrites } from "./space-ordered-writes.js";
import { UpdatedPieces } from "./updated-pieces.js";
import { WrittenIds } from "./written-ids.js";

export interface ParcelImportOptions {
  /** The feature property holding the parcel's own id (APN, map-lot). */
  idField: string;
  /** Threads that validate and measure the parcels while the main thread reads and writes; none by default. */
  threads?: ImportThreadOptions;
  /** The CRS of records given as texts, which the importer parses (see `TextRecord`). */
  crs?: string | undefined;
}

/** Parcels: upserted by (dataset, source id); pieces sharing an id become one MultiPolygon parcel. */
export function parcelImporter({ idField, threads, crs }: ParcelImportOptions): Importer<PreparedAreas, BatchRecord> {
  const preparer = new AreaPreparer({ ids: { kind: "parcels", idField }, crs }, { threads, owners: false });
  let others: OtherDatasets | undefined;
  let spatialIndex: Promise<DeferredSpatialIndex | undefined> | undefined;
  let writtenIds: WrittenIds | undefined;
  const pieces = new UpdatedPieces();
  const written = new SpaceOrderedWrites<Insertable<Schema["parcels"]>>((context, rows) =>
    context.rows.insert("parcels", rows, ["dataset_id", "source_id"]),
  );
  return {
    columns: [idField],
    ahead: preparer.ahead,
    prepare: (_context, batch) => preparer.prepare(batch),
    async importBatch(context: ImportContext, { prepared, outcomes }) {
      spatialIndex ??= DeferredSpatialIndex.begin(context, "parcels");
      await spatialIndex;
      others ??= await otherDatasets(context, "parcels");
      await rejectDuplicates(context, "parcels", others, prepared, outcomes);
      // Into a dataset that held nothing, a stored row of an id can only be one this import wrote.
      writtenIds ??= context.heldRecords ? undefined : new WrittenIds();
      await settleAgainstStored(context, "parcels", prepared, outcomes, written, writtenIds, pieces);

      const areas = [...prepared.values()].filter((area) => area.positions.length > 0);
      const attributes = await context.attributeKeys.columnsOf(areas.map((area) => area.attributes));
      for (const [i, area] of areas.entries()) {
        const { bytes, box, areaM2 } = measure(area);
        const row = {
          dataset_id: context.datasetId,
          source_id: area.sourceId,
          boundary: bytes,
          ...(attributes[i] as AttributeColumns),
          area_m2: areaM2,
          ...bboxColumns(box),
          import_id: context.importId,
          updated_at: context.now,
        };
        written.hold(row, area.sourceId, box, bytes.length);
      }
      return outcomes;
    },
    async finish(context: ImportContext) {
      await written.writeAll(context);
      await (await spatialIndex)?.end(context);
      // New, moved or removed lot lines can change which parcel holds the largest share of a building.
      context.stage("reassigning");
      await reassignBuildings(context, context.changes);
    },
    updatedButUnchanged: (context: ImportContext) => pieces.unchangedAfterAll(context, "parcels"),
    close: () => preparer.close(),
  };
}
