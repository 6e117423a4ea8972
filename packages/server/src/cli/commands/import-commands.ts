import { IMPORT_KINDS, type ImportFileOptions, type ImportKind, importFile } from "../../geo/import/import-file.js";
import type { ImportSummary } from "../../geo/import/import-summary.js";
import { SOURCE_FORMATS } from "../../geo/readers/read-options.js";
import type { Command, OptionSpec } from "../command.js";
import { UsageError } from "../io.js";
import { Progress, progressModeFor } from "../progress.js";
import { recomputeQueued } from "../recompute-queued.js";
import { workerThreadsFor } from "../worker-threads.js";

const text = { type: "string" } as const;

const COMMON: OptionSpec = {
  name: text,
  provider: text,
  license: text,
  vintage: text,
  format: text,
  crs: text,
  object: text,
  "id-field": text,
  "max-rejected": text,
  "allow-empty": { type: "boolean" },
  replace: text,
};

const BY_KIND: Record<ImportKind, { options: OptionSpec; required: string[]; usage: string }> = {
  parcels: { options: {}, required: ["id-field"], usage: "--id-field NAME" },
  buildings: { options: {}, required: [], usage: "[--id-field NAME]" },
  layer: { options: {}, required: [], usage: "[--id-field NAME]" },
  addresses: {
    options: {
      "address-column": text,
      "city-column": text,
      "state-column": text,
      "postcode-column": text,
      "join-parcel": text,
      "lon-column": text,
      "lat-column": text,
      city: text,
      state: text,
    },
    required: ["address-column"],
    usage:
      "--address-column NAME[,NAME…] [--city-column C --state-column S --postcode-column Z] " +
      "(--join-parcel COLUMN | --lon-column X --lat-column Y) [--city C --state S]",
  },
};

/** More import threads than this gain little: the writing, on the main thread, becomes the bound. */
const MAX_IMPORT_THREADS = 4;

/** `lotline import parcels|buildings|addresses|layer FILE …` → `{"read","imported","updated","rejected",…}`. */
export const importCommands = Object.fromEntries(
  IMPORT_KINDS.map((kind): [string, Command] => [
    `import ${kind}`,
    {
      usage: `import ${kind} FILE [FILE…] ${BY_KIND[kind].usage} [--name NAME] [--format ${SOURCE_FORMATS.join("|")}] [--crs EPSG:N] [--object NAME] [--provider P --license L --vintage V] [--max-rejected PERCENT] [--allow-empty] [--replace NAME] [--json]`,
      options: { ...COMMON, ...BY_KIND[kind].options },
      required: BY_KIND[kind].required,
      positional: "file",
      positionalRepeats: true,
      run: async ({ values, services, io }) => {
        const options = optionsFrom(kind, values);
        const progress = new Progress(io, `importing ${kind}`, progressModeFor(io), { reads: true });
        // Used by the kinds with read-only work to spare (buildings' parcels, addresses' locations).
        const threads = workerThreadsFor(services.config.databaseUrl, MAX_IMPORT_THREADS);
        return progress.follow(async () => {
          const summary = await importFile(services.database, {
            ...options,
            ...progress.hooks,
            ...(threads ? { threads } : {}),
          });
          // Changed parcels or buildings, or a replaced dataset, queued the records there to be computed again:
          // do it before answering.
          const queued = summary.properties.queued > 0 || options.rules?.replace !== undefined;
          if (queued) progress.stage("recomputing");
          const recomputed = queued ? await recomputeQueued(services) : undefined;
          return { ...toOutput(summary), ...(recomputed === undefined ? {} : { properties_recomputed: recomputed }) };
        });
      },
      describe: describeImport,
    },
  ]),
);

function optionsFrom(kind: ImportKind, values: Record<string, unknown>): ImportFileOptions {
  const value = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  const defined = <T extends object>(object: T) =>
    Object.fromEntries(Object.entries(object).filter(([, entry]) => entry !== undefined)) as T;
  return defined({
    kind,
    file: values.file as string[],
    name: value("name"),
    provider: value("provider"),
    license: value("license"),
    vintage: value("vintage"),
    read: defined({
      format: value("format") as NonNullable<ImportFileOptions["read"]>["format"],
      crs: value("crs"),
      object: value("object"),
      lonColumn: value("lon-column"),
      latColumn: value("lat-column"),
    }),
    idField: value("id-field"),
    addressColumn: value("address-column"),
    cityColumn: value("city-column"),
    stateColumn: value("state-column"),
    postcodeColumn: value("postcode-column"),
    joinParcel: value("join-parcel"),
    city: value("city"),
    state: value("state"),
    rules: defined({
      maxRejected: maxRejectedFrom(value("max-rejected")),
      allowEmpty: values["allow-empty"] === true ? true : undefined,
      replace: value("replace"),
    }),
  });
}

/** `--max-rejected 10` or `10%`: the share of records that may be rejected before the import is refused. */
export function maxRejectedFrom(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  const percent = match ? Number(match[1]) : Number.NaN;
  if (!(percent >= 0 && percent <= 100)) {
    throw new UsageError(`--max-rejected must be a percentage from 0 to 100, like 10 or 2.5%; got "${text}"`);
  }
  return percent / 100;
}

/** The `--json` output: the contract's four counts first, then what else the import knows. */
function toOutput(summary: ImportSummary): Record<string, unknown> {
  return {
    read: summary.read,
    imported: summary.imported,
    updated: summary.updated,
    rejected: summary.rejected,
    unchanged: summary.unchanged,
    merged: summary.merged,
    kind: summary.kind,
    dataset: summary.dataset,
    rejected_by_reason: summary.rejectedByReason,
    rejections: summary.rejections,
    properties_changed: summary.properties.changed,
  };
}

const LISTED_IN_TEXT = 20;

function describeImport(result: Record<string, unknown>): string {
  const rejections = result.rejections as ImportSummary["rejections"];
  const byReason = result.rejected_by_reason as Record<string, number>;
  const lines = [
    `Imported ${result.kind} into dataset "${result.dataset}": read ${result.read}, imported ${result.imported}, ` +
      `updated ${result.updated}, unchanged ${result.unchanged}, merged ${result.merged}, rejected ${result.rejected}.`,
  ];
  if (result.properties_changed)
    lines.push(`  ${result.properties_changed} property records changed (property.changed).`);
  if (result.properties_recomputed) lines.push(`  ${result.properties_recomputed} property records computed again.`);
  for (const [reason, count] of Object.entries(byReason)) lines.push(`  rejected ${count} × ${reason}`);
  for (const rejection of rejections.slice(0, LISTED_IN_TEXT)) {
    const record = `${rejection.file === undefined ? "" : `${rejection.file} `}record ${rejection.number}`;
    lines.push(`  ${record}: ${rejection.reason}${rejection.detail ? ` (${rejection.detail})` : ""}`);
  }
  if (rejections.length > LISTED_IN_TEXT)
    lines.push(`  … and ${(result.rejected as number) - LISTED_IN_TEXT} more (use --json)`);
  return lines.join("\n");
}
