import type { DatasetKind } from "../db/schema.js";
import type { ImportContext } from "../geo/import/run-import.js";
import { MAX_SEARCH_M } from "../products/index.js";
import type { ChangedArea } from "./changed-area.js";
import { queueRecomputation } from "./queue-recomputation.js";
import { recomputeLayer } from "./recompute-layer.js";

/** What an import did to the property records under the data it changed. */
export interface RecordsAfterImport {
  /** Records a layer import changed, each now a new version (computed in the import's transaction). */
  changed: number;
  /** Records queued to be computed again in full (`recompute_property`), after parcels or buildings changed. */
  queued: number;
}

/**
 * Brings the property records under what an import changed up to date, in its transaction. A layer's entry is
 * computed again at once for each record it may alter; parcels and buildings queue whole records (a lot's
 * buildings and its neighbours' distances, up to the exposure search's reach, may have moved). Addresses go into
 * no record: they only locate orders.
 */
export async function updateRecordsAfterImport(
  context: ImportContext,
  kind: DatasetKind,
  area: ChangedArea,
): Promise<RecordsAfterImport> {
  if (area.empty) return { changed: 0, queued: 0 };
  switch (kind) {
    case "layer":
      return { changed: await recomputeLayer(context, area), queued: 0 };
    case "parcels":
    case "buildings":
      return { changed: 0, queued: await queueRecomputation(context, area.grownBy(MAX_SEARCH_M)) };
    case "addresses":
      return { changed: 0, queued: 0 };
  }
}
