import { sql, type Transaction } from "kysely";
import { updateRecordsAfterImport } from "../../changes/after-import.js";
import { ChangedArea } from "../../changes/changed-area.js";
import type { Database, Dialect } from "../../db/database.js";
import { RowWriter } from "../../db/row-writer.js";
import type { DatasetKind, DatasetNamespace, Schema } from "../../db/schema.js";
import { inTransactionWithStatementJournalsInMemory } from "../../db/statement-journals-in-memory.js";
import { refreshExtentAndCount } from "../datasets/dataset-extent.js";
import type { DatasetStage } from "../datasets/dataset-stage.js";
import { removeDatasetRows } from "../datasets/remove-dataset.js";
import { positionCount } from "../geometry/positions.js";
import { AttributeKeys } from "../store/stored-attributes.js";
import type { SourceRecord, TextRecord } from "../types.js";
import { DEFAULT_IMPORT_POLICY, type ImportPolicy, refusalOf } from "./import-policy.js";
import { ImportRefusedError } from "./import-refused.js";
import { count, emptySummary, type ImportSummary, type RecordOutcome } from "./import-summary.js";

/** Records are written this many at a time: one round trip per batch instead of one per record. */
const BATCH_SIZE = 500;

/**
 * …or fewer, once they hold this many positions: a batch of a state's flood zones, each of a hundred thousand
 * vertices, would otherwise take gigabytes. Some 1.2 MB parsed, well within the young generation, where the parsed
 * records die without being copied: at 250,000 positions a batch outlived several collections, and the 500-year
 * flood layer of 77 tiles took 3.70 against 3.00 s (a quarter of it collecting garbage), at a peak of 157 against
 * 127 MB. Lots and footprints come 500 at a time before they reach this many.
 */
const BATCH_POSITIONS = 20_000;

export interface DatasetInfo {
  kind: DatasetKind;
  name: string;
  provider?: string;
  license?: string;
  vintage?: string;
  /** `main` unless given; the demo's generated data is `demo`, apart from everything imported. */
  namespace?: DatasetNamespace;
}

/** How an import treats the data already there. */
export interface ImportRules extends ImportPolicy {
  /** Another dataset of the same kind that this import replaces: removed in the same transaction. */
  replace?: string;
}

/** What a kind's importer gets to work with inside the import's transaction. */
export interface ImportContext {
  trx: Transaction<Schema>;
  dialect: Dialect;
  /** Writes a batch's rows in the transaction, by the fastest path of each database. */
  rows: RowWriter;
  /** The stored form of records' attributes, their names kept once. */
  attributeKeys: AttributeKeys;
  datasetId: number;
  /**
   * Whether the dataset held records before this import. A first import has nothing stored to compare a batch
   * with but what it wrote itself.
   */
  heldRecords: boolean;
  namespace: DatasetNamespace;
  importId: number;
  now: number;
  /** Where the import added, changed or removed rows: the property records there are brought up to date. */
  changes: ChangedArea;
  /** Tells whoever follows the import that its end work has come to `stage`. */
  stage: (stage: DatasetStage) => void;
}

export type ReadRecord = Extract<SourceRecord, { feature: unknown }>;

/** A record in a batch: read, or (for an importer whose threads parse) its text still to parse. */
export type BatchRecord = ReadRecord | TextRecord;

/**
 * Characters of a record's text counted as one position when a batch is sized: a position as written takes 20 to
 * 40 (`[-71.1234567,42.3456789],`), so a batch of texts holds at most as many positions as one of parsed records.
 */
const TEXT_PER_POSITION = 20;

/**
 * One kind's import logic: outcomes for a batch (one per record, in order), and optional work at the end. A batch
 * may first be prepared — work that writes nothing, such as validating and measuring — and up to `ahead` batches
 * are then prepared (on other threads) while an earlier one is written.
 */
export interface Importer<Prepared = ReadRecord[], In extends BatchRecord = ReadRecord> {
  /** The columns (feature properties) the options named: each must exist in the file. */
  columns?: readonly string[];
  /** How many batches may be in preparation beyond the one being written; none by default. */
  ahead?: number;
  prepare?(context: ImportContext, batch: In[]): Promise<Prepared>;
  importBatch(context: ImportContext, prepared: Prepared): Promise<RecordOutcome[]>;
  /**
   * Work that would otherwise wait for `finish`, done when the batch to write next is still being prepared on
   * another thread (`ahead`), so that the main thread would only wait for it.
   */
  whileWaiting?(context: ImportContext): Promise<void>;
  finish?(context: ImportContext): Promise<void>;
  /**
   * After `finish`: how many records counted as updated left their rows as they were (see `updated-pieces.ts`),
   * which are then counted unchanged.
   */
  updatedButUnchanged?(context: ImportContext): Promise<number>;
  /** Releases what the importer holds (threads), whether the import succeeded or not. */
  close?(): Promise<void>;
  /**
   * SQLite: its transaction keeps statement journals in memory (see `inTransactionWithStatementJournalsInMemory`);
   * only for an import whose statements each change a bounded number of stored pages. Never when the import
   * replaces a dataset: deleting the replaced rows is one statement.
   */
  statementJournalsInMemory?: boolean;
}

export interface RunImportOptions {
  onProgress?: (summary: ImportSummary) => void;
  /** Called as the import's work before its first record and after its last comes to each {@link DatasetStage}. */
  onStage?: (stage: DatasetStage) => void;
  rules?: ImportRules;
}

/**
 * Runs an import all-or-nothing: one transaction holds the dataset, the import's row and every record written,
 * so a failure halfway (a crash, a bad file, Ctrl+C) leaves the database as it was. Records stream through in
 * batches; nothing holds the whole file in memory. An import whose result would be implausible under `rules` (a
 * named column the file lacks, too many records rejected, nothing imported) is refused with an
 * {@link ImportRefusedError} and leaves nothing behind either.
 */
export async function runImport<Prepared, In extends BatchRecord = ReadRecord>(
  database: Database,
  dataset: DatasetInfo,
  source: string,
  records: AsyncIterable<SourceRecord | In>,
  importer: Importer<Prepared, In>,
  options: RunImportOptions = {},
): Promise<ImportSummary> {
  try {
    const summary = await importAll(database, dataset, source, records, importer, options);
    // The import's whole transaction went through the log: it is not left taking that room on disk.
    await database.shrinkLog();
    return summary;
  } finally {
    await importer.close?.();
  }
}

async function importAll<Prepared, In extends BatchRecord>(
  database: Database,
  dataset: DatasetInfo,
  source: string,
  records: AsyncIterable<SourceRecord | In>,
  importer: Importer<Prepared, In>,
  { onProgress = () => {}, onStage = () => {}, rules = DEFAULT_IMPORT_POLICY }: RunImportOptions,
): Promise<ImportSummary> {
  const summary = emptySummary(dataset.kind, dataset.name);
  // Out here so that a failure can be traced to a write that failed before it (see `RowWriter.failure`).
  let rows = undefined as RowWriter | undefined;
  const journalsInMemory = importer.statementJournalsInMemory === true && rules.replace === undefined;
  const written = inTransaction(database, journalsInMemory, async (trx) => {
    const now = Date.now();
    const namespace = dataset.namespace ?? "main";
    const { datasetId, heldRecords } = await upsertDataset(trx, database.dialect, { ...dataset, namespace }, now);
    if (rules.replace !== undefined) {
      onStage("replacing");
      await replaceDataset({ trx, dialect: database.dialect }, dataset.kind, namespace, rules.replace, datasetId);
    }
    const { import_id } = await trx
      .insertInto("imports")
      .values({ dataset_id: datasetId, source, started_at: now })
      .returning("import_id")
      .executeTakeFirstOrThrow();
    const context: ImportContext = {
      trx,
      dialect: database.dialect,
      rows: new RowWriter(database, trx),
      attributeKeys: new AttributeKeys(trx),
      datasetId,
      heldRecords,
      namespace,
      importId: import_id,
      now,
      changes: new ChangedArea(),
      stage: onStage,
    };
    rows = context.rows;

    let batch: In[] = [];
    let batchPositions = 0;
    let columnsChecked = false;
    const statistics = new TableStatistics(context, dataset.kind);
    // A batch waiting for its turn keeps its records' numbers, not the records: whatever the importer needs of
    // them it keeps in what it prepared, and a parsed record held through several batches outlives the young
    // generation, which the collector then copies and promotes.
    const preparing: Array<{ numbers: number[]; prepared: Promise<Prepared> }> = [];
    const writeOldest = async () => {
      const oldest = preparing.shift();
      if (!oldest) return;
      if (importer.ahead && importer.whileWaiting && !(await hasSettled(oldest.prepared))) {
        await importer.whileWaiting(context);
      }
      const outcomes = await importer.importBatch(context, await oldest.prepared);
      for (const [index, number] of oldest.numbers.entries()) {
        count(summary, number, outcomes[index] ?? { reason: "not_processed" });
      }
      await statistics.keepUp(summary.read);
      onProgress(summary);
    };
    const flush = async () => {
      if (!columnsChecked && batch.length > 0) {
        requireColumns(importer.columns ?? [], batch);
        columnsChecked = true;
      }
      const prepared = importer.prepare ? importer.prepare(context, batch) : Promise.resolve(batch as Prepared);
      // Awaited in its turn, where a failure fails the import; until then it must not count as unhandled.
      prepared.catch(() => {});
      preparing.push({ numbers: batch.map((record) => record.number), prepared });
      batch = [];
      batchPositions = 0;
      while (preparing.length > (importer.ahead ?? 0)) await writeOldest();
    };
    for await (const record of records) {
      if ("error" in record) count(summary, record.number, { reason: "unreadable", detail: record.error });
      else {
        batch.push(record as In);
        batchPositions +=
          "text" in record ? record.text.length / TEXT_PER_POSITION : positionCount(record.feature.geometry);
      }
      if (batch.length >= BATCH_SIZE || batchPositions >= BATCH_POSITIONS) await flush();
    }
    await flush();
    while (preparing.length > 0) await writeOldest();
    const refusal = refusalOf(summary, rules);
    if (refusal) throw new ImportRefusedError(refusal);
    onStage("indexing");
    await importer.finish?.(context);
    const unchanged = (await importer.updatedButUnchanged?.(context)) ?? 0;
    summary.updated -= unchanged;
    summary.unchanged += unchanged;
    await refreshExtentAndCount({ db: trx, dialect: database.dialect }, datasetId, dataset.kind);
    onStage("properties");
    summary.properties = await updateRecordsAfterImport(context, dataset.kind, context.changes);
    await trx
      .updateTable("imports")
      .set({ finished_at: Date.now(), summary: JSON.stringify(summary) })
      .where("import_id", "=", import_id)
      .execute();
    // Committed only once every row is stored: PostgreSQL ends a transaction a failed write aborted by rolling back.
    await context.rows.settle();
    onStage("committing");
  });
  await written.catch(async (error: unknown) => {
    throw (await rows?.failure()) ?? error;
  });
  // In the file's order: a record the reader could not read is counted as it is read, ahead of the batch before it,
  // or with its batch where a thread parses it.
  summary.rejections.sort((a, b) => a.number - b.number);
  return summary;
}

const NOT_YET = Symbol("not yet");

/** Whether `promise` has settled: in a race with a value, a promise settled before wins. */
async function hasSettled(promise: Promise<unknown>): Promise<boolean> {
  try {
    return (await Promise.race([promise, NOT_YET])) !== NOT_YET;
  } catch {
    return true;
  }
}

/** Runs `work` in a transaction, with its statement journals in memory if asked to. */
function inTransaction<T>(
  database: Database,
  journalsInMemory: boolean,
  work: (trx: Transaction<Schema>) => Promise<T>,
): Promise<T> {
  return journalsInMemory
    ? inTransactionWithStatementJournalsInMemory(database, work)
    : database.db.transaction().execute(work);
}

/**
 * The tables an import of each kind writes to, whose statistics PostgreSQL's planner reads during the import, with
 * the columns its statements look rows up by (those of the tables' indexes, and a layer's import ids). Analyzing
 * only these still counts the table's rows, and leaves out the wide geometry and attribute columns that were most
 * of each analysis: a layer table of 45,000 rows took 32 ms against 140 ms, a table of 260,000 parcels 58 against
 * 241 ms.
 */
const ANALYZED: Record<DatasetKind, Array<{ table: string; columns: string[] }>> = {
  parcels: [{ table: "parcels", columns: ["dataset_id", "source_id"] }],
  buildings: [{ table: "buildings", columns: ["dataset_id", "source_id", "parcel_id"] }],
  addresses: [
    { table: "addresses", columns: ["dataset_id", "street", "number_low", "city", "parcel_id", "lat", "lon"] },
  ],
  layer: [
    { table: "layer_features", columns: ["dataset_id", "source_id", "import_id"] },
    { table: "layer_parts", columns: ["feature_id"] },
  ],
};

/** Records read before the first refresh of the statistics; each later one waits for twice as many. */
const FIRST_ANALYZE_AT = 2000;

/**
 * PostgreSQL plans each statement by the statistics of its tables, and within one long import they describe the
 * table as it was before: empty, for a state's first import. Checking a batch against the rows already written
 * then walked every row of the dataset (a plan for a table of a hundred rows), and 110,000 address rows took 55 s.
 * `analyze` inside the transaction counts its own rows; run each time the import has doubled, it costs a few
 * analyses in all and keeps every plan within a factor of two of the truth. SQLite's plans do not need it.
 */
class TableStatistics {
  #next = FIRST_ANALYZE_AT;

  constructor(
    private readonly context: ImportContext,
    private readonly kind: DatasetKind,
  ) {}

  async keepUp(read: number): Promise<void> {
    if (this.context.dialect !== "postgres" || read < this.#next) return;
    this.#next = read * 2;
    for (const { table, columns } of ANALYZED[this.kind]) {
      await sql`analyze ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))})`.execute(
        this.context.trx,
      );
    }
  }
}

/** How many of a file's columns a refusal names. */
const COLUMNS_NAMED = 30;

/**
 * A column named in the options (`--id-field MLX`) that no record of the first batch has is a typo, not a file of
 * records without ids: the import is refused before anything is written, naming the columns the file does have.
 */
function requireColumns(columns: readonly string[], batch: BatchRecord[]): void {
  const present = new Set(batch.flatMap((record) => Object.keys(propertiesOf(record))));
  const missing = columns.find((column) => !present.has(column));
  if (missing === undefined) return;
  const named = [...present].slice(0, COLUMNS_NAMED).join(", ");
  const more = present.size > COLUMNS_NAMED ? ", …" : "";
  throw new ImportRefusedError(`no column ${missing}; columns are ${named || "(none)"}${more}`);
}

/** Removes the dataset `--replace` names, which must be another of the same kind, before the import writes. */
async function replaceDataset(
  source: { trx: Transaction<Schema>; dialect: Dialect },
  kind: DatasetKind,
  namespace: DatasetNamespace,
  name: string,
  importingId: number,
): Promise<void> {
  const replaced = await source.trx
    .selectFrom("datasets")
    .select("dataset_id")
    .where("kind", "=", kind)
    .where("namespace", "=", namespace)
    .where("name", "=", name)
    .executeTakeFirst();
  if (!replaced) throw new ImportRefusedError(`--replace: there is no ${kind} dataset "${name}"`);
  if (replaced.dataset_id === importingId) {
    throw new ImportRefusedError(
      `--replace "${name}" names the dataset being imported; importing under the same name already updates it`,
    );
  }
  await removeDatasetRows(source, replaced.dataset_id);
}

/**
 * Finds the dataset by kind and name, refreshing its provenance where the import gives it, or creates it. A name
 * is unique per kind across namespaces, so an import never writes into the demo's generated data.
 *
 * On PostgreSQL the dataset's row stays locked until the import ends: a removal of the dataset waits for the import
 * (and deletes its rows), and an import that waited for a removal finds the dataset gone and creates it again,
 * rather than write rows for a dataset that no longer exists (no foreign key refuses them there, see migration
 * 0023).
 */
async function upsertDataset(
  trx: Transaction<Schema>,
  dialect: Dialect,
  dataset: DatasetInfo & { namespace: DatasetNamespace },
  now: number,
): Promise<{ datasetId: number; heldRecords: boolean }> {
  const provenance = {
    ...(dataset.provider === undefined ? {} : { provider: dataset.provider }),
    ...(dataset.license === undefined ? {} : { license: dataset.license }),
    ...(dataset.vintage === undefined ? {} : { vintage: dataset.vintage }),
  };
  const existing = await trx
    .selectFrom("datasets")
    .select(["dataset_id", "namespace", "record_count"])
    .where("kind", "=", dataset.kind)
    .where("name", "=", dataset.name)
    .$if(dialect === "postgres", (query) => query.forUpdate())
    .executeTakeFirst();
  if (existing && existing.namespace !== dataset.namespace) {
    throw new ImportRefusedError(
      `"${dataset.name}" is a ${dataset.kind} dataset of the ${existing.namespace} namespace; choose another --name`,
    );
  }
  if (existing) {
    await trx
      .updateTable("datasets")
      .set({ ...provenance, updated_at: now })
      .where("dataset_id", "=", existing.dataset_id)
      .execute();
    // Each import counts its dataset's rows as it ends, and nothing else writes them.
    return { datasetId: existing.dataset_id, heldRecords: existing.record_count > 0 };
  }
  const created = await trx
    .insertInto("datasets")
    .values({
      kind: dataset.kind,
      name: dataset.name,
      namespace: dataset.namespace,
      ...provenance,
      created_at: now,
      updated_at: now,
    })
    .returning("dataset_id")
    .executeTakeFirstOrThrow();
  return { datasetId: created.dataset_id, heldRecords: false };
}

/**
 * A record's properties; a text is parsed for them (the first batch's only, for {@link requireColumns}), whatever
 * its geometry: that is checked where the text is read.
 */
function propertiesOf(record: BatchRecord): object {
  if ("feature" in record) return record.feature.properties ?? {};
  try {
    const { properties } = JSON.parse(record.text) as { properties?: unknown };
    return typeof properties === "object" && properties !== null ? properties : {};
  } catch {
    return {};
  }
}
