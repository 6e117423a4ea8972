import { PERILS, type Peril } from "@lotline/contract";
import { importEvent } from "../../events/import-event.js";
import type { SearchThreads } from "../../events/search-on-threads.js";
import { DEFAULT_IMPORT_POLICY } from "../../geo/import/import-policy.js";
import type { ReadOptions } from "../../geo/readers/index.js";
import type { Command } from "../command.js";
import { UsageError } from "../io.js";
import { workerThreadsFor } from "../worker-threads.js";
import { maxRejectedFrom } from "./import-commands.js";

const text = { type: "string" } as const;

/**
 * `lotline import event FILE --name NAME --peril P …` → `{"event_id", "read", "imported", "rejected", …,
 * "impacted_properties", "organizations"}`.
 */
const importEventCommand: Command = {
  usage:
    "import event FILE --name NAME --peril flood|wind|hail|wildfire|earthquake|other [--date YYYY-MM-DD] [--intensity-field FIELD] [--crs EPSG:N] [--object NAME] [--max-rejected PERCENT] [--json]",
  options: {
    name: text,
    peril: text,
    date: text,
    "intensity-field": text,
    format: text,
    crs: text,
    object: text,
    "max-rejected": text,
  },
  required: ["name", "peril"],
  positional: "file",
  run: async ({ values, services }) => {
    const value = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
    const peril = value("peril") as Peril;
    if (!PERILS.includes(peril)) throw new UsageError(`--peril must be one of ${PERILS.join(", ")}; got "${peril}"`);
    const name = (value("name") ?? "").trim();
    if (name === "") throw new UsageError("--name must name the event");
    const read: ReadOptions = Object.fromEntries(
      [
        ["format", value("format")],
        ["crs", value("crs")],
        ["object", value("object")],
      ].filter(([, entry]) => entry !== undefined),
    );
    const maxRejected = maxRejectedFrom(value("max-rejected"));
    const date = value("date");
    const intensityField = value("intensity-field");
    const imported = await importEvent(services.database, {
      file: value("file") as string,
      name,
      peril,
      ...(date === undefined ? {} : { date }),
      ...(intensityField === undefined ? {} : { intensityField }),
      read,
      policy: { ...DEFAULT_IMPORT_POLICY, ...(maxRejected === undefined ? {} : { maxRejected }) },
      ...searchThreadsFor(services.config.databaseUrl),
    });
    const { summary } = imported;
    return {
      event_id: imported.eventId,
      name,
      peril,
      read: summary.read,
      imported: summary.imported,
      rejected: summary.rejected,
      rejected_by_reason: summary.rejectedByReason,
      rejections: summary.rejections,
      impacted_properties: imported.impactedProperties,
      organizations: imported.organizations,
    };
  },
  describe: (result) =>
    [
      `Imported event ${result.event_id} "${result.name}" (${result.peril}): read ${result.read} polygons, ` +
        `imported ${result.imported}, rejected ${result.rejected}.`,
      `It meets ${result.impacted_properties} ordered properties of ${result.organizations} organizations; ` +
        "each monitoring organization among them is sent an event.impacted webhook.",
    ].join("\n"),
};

/** More threads than this gain little: the search's writing, on the main thread, becomes the bound. */
const MAX_SEARCH_THREADS = 8;

/** The portfolio searched on threads beside the one that writes (see `workerThreadsFor`). */
function searchThreadsFor(databaseUrl: string): { searchThreads?: SearchThreads } {
  const threads = workerThreadsFor(databaseUrl, MAX_SEARCH_THREADS);
  return threads ? { searchThreads: threads } : {};
}

export const importEventCommands: Record<string, Command> = { "import event": importEventCommand };
