import { bboxOf, geodesicArea } from "../geometry/index.js";
import { bboxColumns } from "../store/spatial-filter.js";
import { encodeWkb } from "../store/wkb.js";
import { idFrom, prepareAreas, settleAgainstStored } from "./area-batch.js";
import { ParcelAssigner } from "./assign-buildings.js";
import { type OtherDatasets, otherDatasets, rejectDuplicates } from "./duplicate-areas.js";
import { replaceFromExcluded } from "./replace-from-excluded.js";
import type { ImportContext, Importer, ReadRecord } from "./run-import.js";

export interface BuildingImportOptions {
  /**
   * The feature property holding the building's own id. Without one, a building is known by its feature number
   * (`#12`), which stays the same only when the same file is imported again.
   */
  idField?: string;
}

/** Building footprints: upserted by (dataset, source id), each assigned the parcel holding most of it. */
export function buildingImporter({ idField }: BuildingImportOptions): Importer {
  let others: OtherDatasets | undefined;
  let assigner: ParcelAssigner | undefined;
  return {
    columns: idField === undefined ? [] : [idField],
    async importBatch(context: ImportContext, batch: ReadRecord[]) {
      const { prepared, outcomes } = prepareAreas(batch, (record) => idFrom(record, idField));
      others ??= await otherDatasets(context, "buildings");
      await rejectDuplicates(context, "buildings", others, prepared, outcomes);
      await settleAgainstStored(context, "buildings", prepared, outcomes);

      assigner ??= new ParcelAssigner(context);
      const areas = [...prepared.values()].filter((area) => area.positions.length > 0);
      const owners = await assigner.owningParcels(areas.map((area) => area.geometry));
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
  };
}
