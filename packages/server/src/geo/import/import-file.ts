import { basename, extname } from "node:path";
import type { Database } from "../../db/database.js";
import { InvalidInputError } from "../../errors.js";
import {
  type ReadOptions,
  readSource,
  readSourceTexts,
  SOURCE_FORMATS,
  sourceFormat,
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

export const IMPORT_KINDS = ["parcels", "buildings", "addresses", "layer"] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export interface ImportFileOptions {
  kind: ImportKind;
  file: string;
  /** The dataset's name; the file's base name by default. Importing again under the same name updates it. */
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
  // A parcel import's threads parse a GeoJSONSeq file's lines: its main thread, which reads and writes, was busy
  // parsing while its thread waited. (A building import's thread is the busier of the two already.)
  const texts =
    options.kind === "parcels" && options.threads !== undefined && sourceFormat(options.file, format) === "geojsonseq";
  const importer = importerFor(options, texts);
  const unpacked = withoutPacking(options.file);
  const name = options.name?.trim() || basename(unpacked, extname(unpacked));
  const reading = { ...options.read, ...(options.onBytes ? { onProgress: options.onBytes } : {}) };
  const records = texts ? readSourceTexts(options.file, reading) : readSource(options.file, reading);
  return runImport(
    database,
    {
      kind: options.kind,
      name,
      ...(options.provider === undefined ? {} : { provider: options.provider }),
      ...(options.license === undefined ? {} : { license: options.license }),
      ...(options.vintage === undefined ? {} : { vintage: options.vintage }),
    },
    basename(options.file),
    records,
    importer,
    {
      rules: { ...DEFAULT_IMPORT_POLICY, ...options.rules },
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    },
  );
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
