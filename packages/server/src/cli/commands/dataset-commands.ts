import type { DatasetKind } from "../../db/schema.js";
import { listDatasets } from "../../geo/datasets/list-datasets.js";
import { removeDataset } from "../../geo/datasets/remove-dataset.js";
import { IMPORT_KINDS } from "../../geo/import/import-file.js";
import type { Command } from "../command.js";
import { UsageError } from "../io.js";
import { Progress, progressModeFor } from "../progress.js";
import { recomputeQueued } from "../recompute-queued.js";

/** `lotline datasets list`: every imported dataset → `{"datasets": [...]}`. */
const datasetsList: Command = {
  usage: "datasets list [--json]",
  options: {},
  required: [],
  run: async ({ services }) => ({ datasets: await listDatasets(services.database) }),
  describe: (result) => {
    const datasets = result.datasets as Awaited<ReturnType<typeof listDatasets>>;
    if (datasets.length === 0) return "(no datasets; lotline import adds them)";
    return datasets
      .map((dataset) => {
        const provenance = [dataset.provider, dataset.license, dataset.vintage].filter(Boolean).join(", ");
        const extent = dataset.extent ? dataset.extent.map((value) => value.toFixed(4)).join(", ") : "empty";
        return [
          `${dataset.name} (${dataset.kind}${dataset.namespace === "main" ? "" : `, ${dataset.namespace}`})`,
          `  ${dataset.records} records${dataset.geometry_kind ? ` (${dataset.geometry_kind}s)` : ""}, imported ${dataset.imported_at ?? "never"}`,
          `  ${provenance || "no provider, licence or vintage given"}`,
          `  extent ${extent}`,
        ].join("\n");
      })
      .join("\n");
  },
};

/**
 * `lotline datasets remove NAME [--kind KIND]`: the dataset and its rows go in one transaction; the property
 * records within its coverage are then computed again without it (here, and by any running worker).
 */
const datasetsRemove: Command = {
  usage: "datasets remove NAME [--kind parcels|buildings|addresses|layer] [--json]",
  options: { kind: { type: "string" } },
  required: [],
  positional: "name",
  run: async ({ values, services, io }) => {
    const kind = values.kind as string | undefined;
    if (kind !== undefined && !(IMPORT_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(`--kind must be one of ${IMPORT_KINDS.join(", ")}`);
    }
    const name = values.name as string;
    const progress = new Progress(io, `removing "${name}"`, progressModeFor(io), { reads: false });
    return progress.follow(async () => {
      const removed = await removeDataset(services.database, name, kind as DatasetKind | undefined, (stage) =>
        progress.stage(stage),
      );
      progress.stage("recomputing");
      return { ...removed, properties_recomputed: await recomputeQueued(services) };
    });
  },
  describe: (result) =>
    `Removed ${result.kind} dataset "${result.name}" (${result.removed} records); ` +
    `${result.properties_recomputed} property records computed again.`,
};

export const datasetCommands: Record<string, Command> = {
  "datasets list": datasetsList,
  "datasets remove": datasetsRemove,
};
