import { basename, extname } from "node:path";
import type { Database } from "../../db/database.js";
import { InvalidInputError } from "../../errors.js";
import type { DatasetStage } from "../datasets/dataset-stage.js";
import {
  type ReadOptions,
  readSource,
  readSourceTexts,
  SOURCE_FORMATS,
  type SourceRecord,
  sourceFormat,
  type TextRecord,
  withoutPacking,
} from "../readers/index.js";
import { addressImporter } from "./address-importer.js";
import { buildingImporter } from "./building-importer.js";
import { DEFAULT_IMPORT_POLICY } from "./import-policy.js";
import type { ImportSummary } from "./import-summary.js";
import type { ImportThreadOptions } from "./import-threads.js";
import { layerImporter } from "./layer-importer.js";
import { parcelImporter } from "./parcel-importer.js";
import { type BatchRecord, type Importer, type ImportRules, runImport } from "./run-import.js";
import { placeInFiles, readSeveralFiles } from "./several-files.js";

export const IMPORT_KINDS = ["parcels", "buildings", "addresses", "layer"] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export interface ImportFileOptions {
  kind: ImportKind;
  /**
   * The file, or several read one after the other into the one dataset in one transaction (a state's parcels
   * published town by town); their records are numbered apart (`several-files.ts`).
   */
  file: string | readonly string[];
  /**
   * The dataset's name; the file's base name by default, required with several files. Importing again under the
   * same name updates it.
   */
  name?: string;
  provider?: string;
  license?: string;
  vintage?: string;
  read?: Omit<ReadOptions, "onProgress">;
  idField?: string;
  addressColumn?: string;
  cityColumn?: string;
  stateColumn?: string;
  postcodeColumn?: string;
  joinParcel?: string;
  city?: string;
  state?: string;
  /**
   * Threads that do a parcel, building or address import's work that writes nothing (validating and measuring
   * areas, finding buildings' parcels, locating addresses) while the main thread reads and writes; none by default.
   */
  threads?: ImportThreadOptions;
  /** What the import may do to the data already there; {@link DEFAULT_IMPORT_POLICY} by default. */
  rules?: Partial<ImportRules>;
  /** Called as the file is read: bytes so far and in all, when the reader can tell. */
  onBytes?: (read: number, total: number) => void;
  onProgress?: (summary: ImportSummary) => void;
  /** Called as the import's work before its first record and after its last comes to each stage. */
  onStage?: (stage: DatasetStage) => void;
}

/**
 * `lotline import KIND FILE`: reads the file in the format it comes in and imports it all-or-nothing. Every option
 * is checked before the file is opened.
 */
export async function importFile(database: Database, options: ImportFileOptions): Promise<ImportSummary> {
  const format = options.read?.format;
  if (format !== undefined && !(SOURCE_FORMATS as readonly string[]).includes(format)) {
    throw new InvalidInputError("unknown_format", `unknown format "${format}"; one of ${SOURCE_FORMATS.join(", ")}`);
  }
  const files = typeof options.file === "string" ? [options.file] : options.file;
  const [first] = files;
  if (first === undefined) throw new InvalidInputError("missing_file", "no file to import");
  if (files.length > 1 && !options.name?.trim()) {
    throw new InvalidInputError("missing_name", "name the dataset the files go into with --name");
  }
  // A parcel import's threads parse a GeoJSONSeq file's lines: its main thread, which reads and writes, was busy
  // parsing while its thread waited. (A building import's thread is the busier of the two already.)
  const texts =
    options.kind === "parcels" &&
    options.threads !== undefined &&
    files.every((file) => sourceFormat(file, format) === "geojsonseq");
  const importer = importerFor(options, texts);
  const unpacked = withoutPacking(first);
  const name = options.name?.trim() || basename(unpacked, extname(unpacked));
  const reading = { ...options.read, ...(options.onBytes ? { onProgress: options.onBytes } : {}) };
  const read = (file: string, options: ReadOptions): AsyncIterable<SourceRecord | TextRecord> =>
    texts ? readSourceTexts(file, options) : readSource(file, options);
  const records = files.length === 1 ? read(first, reading) : readSeveralFiles(files, reading, read);
  const summary = await runImport(
    database,
    {
      kind: options.kind,
      name,
      ...(options.provider === undefined ? {} : { provider: options.provider }),
      ...(options.license === undefined ? {} : { license: options.license }),
      ...(options.vintage === undefined ? {} : { vintage: options.vintage }),
    },
    files.length === 1 ? basename(first) : `${basename(first)} and ${files.length - 1} more files`,
    records,
    importer,
    {
      rules: { ...DEFAULT_IMPORT_POLICY, ...options.rules },
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.onStage ? { onStage: options.onStage } : {}),
    },
  );
  if (files.length === 1) return summary;
  // Each rejected record named by its file and its number there.
  const rejections = summary.rejections.map((rejection) => ({
    ...rejection,
    ...placeInFiles(rejection.number, files),
  }));
  return { ...summary, rejections };
}

/** The importer of `options.kind`; `texts`: it is given GeoJSONSeq texts, which it parses with the file's CRS. */
function importerFor(options: ImportFileOptions, texts: boolean): Importer<unknown, BatchRecord> {
  switch (options.kind) {
    case "parcels":
      if (!options.idField) {
        throw new InvalidInputError("missing_id_field", "parcels need --id-field: the property holding the parcel id");
      }
      return parcelImporter({
        idField: options.idField,
        threads: options.threads,
        ...(texts ? { crs: options.read?.crs } : {}),
      });
    case "buildings":
      return buildingImporter({ idField: options.idField, threads: options.threads });
    case "layer":
      return layerImporter({ idField: options.idField });
    case "addresses": {
      if (!options.addressColumn) {
        throw new InvalidInputError("missing_address_column", "addresses need --address-column");
      }
      const hasPoints = options.read?.lonColumn !== undefined || options.read?.latColumn !== undefined;
      if (options.joinParcel && hasPoints) {
        throw new InvalidInputError(
          "conflicting_location",
          "locate addresses by --join-parcel or by coordinates, not both",
        );
      }
      return addressImporter(
        {
          addressColumn: options.addressColumn,
          ...(options.cityColumn ? { cityColumn: options.cityColumn } : {}),
          ...(options.stateColumn ? { stateColumn: options.stateColumn } : {}),
          ...(options.postcodeColumn ? { postcodeColumn: options.postcodeColumn } : {}),
          ...(options.joinParcel ? { joinParcel: options.joinParcel } : {}),
          ...(options.city ? { city: options.city } : {}),
          ...(options.state ? { state: options.state } : {}),
        },
        options.threads,
      );
    }
  }
}
