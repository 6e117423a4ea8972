import { covers } from "../geo/datasets/coverage.js";
import type { ImportContext } from "../geo/import/run-import.js";
import { MonitoringCallbacks } from "../monitoring/monitoring-callbacks.js";
import { layerDatasets } from "../products/provenance.js";
import {
  layerResult,
  NEAREST_FEATURE_MAX_M,
  type ThirdPartyResult,
  withLayer,
} from "../products/third-party-product.js";
import { lotBoxOf } from "../versions/lot-box.js";
import { applyRecomputed } from "./apply-recomputed.js";
import type { ChangedArea } from "./changed-area.js";
import { propertiesInArea } from "./properties-in-area.js";
import { recomputeInputs } from "./recompute-inputs.js";

/**
 * After a layer's import changed features in `area`: for every property whose lot meets the area (or, for a layer
 * of points, lies within the nearest-feature search of it), the layer's entry in its `third_party` record is
 * computed again — the one layer, not the whole product — and kept as a new version with a `property.changed`
 * notice where a figure changed. Runs in the import's transaction. Answers how many records changed.
 */
export async function recomputeLayer(context: ImportContext, area: ChangedArea): Promise<number> {
  const source = { db: context.trx, dialect: context.dialect };
  const layer = (await layerDatasets(source)).find((dataset) => dataset.datasetId === context.datasetId);
  if (!layer) return 0;
  const reach = layer.geometryKind === "point" ? NEAREST_FEATURE_MAX_M : 0;
  const callbacks = new MonitoringCallbacks(context.trx);
  const computedAt = new Date(context.now).toISOString();
  let changed = 0;
  for await (const page of propertiesInArea(source, area.grownBy(reach))) {
    for (const found of await recomputeInputs(source, page)) {
      const thirdParty = found.record?.products.third_party as ThirdPartyResult | undefined;
      if (!found.record || !thirdParty) continue;
      const result =
        layer.geometryKind !== null && covers(layer.extent, found.input.point)
          ? await layerResult(source, layer, found.input)
          : undefined;
      const after = {
        products: {
          ...found.record.products,
          third_party: withLayer(thirdParty, layer.provenance.dataset, result, computedAt),
        },
      };
      const recomputed = { ...found, before: found.record, after, lot: lotBoxOf(found.input) };
      if (await applyRecomputed(context.trx, callbacks, recomputed, context.now)) changed += 1;
    }
  }
  return changed;
}
