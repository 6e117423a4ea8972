import type { Transaction } from "kysely";
import type { Database, Dialect } from "../../db/database.js";
import type { DatasetKind, Schema } from "../../db/schema.js";
import type { SourceRecord } from "../types.js";
import { count, emptySummary, type ImportSummary, type RecordOutcome } from "./import-summary.js";

/** Records are written this many at a time: one round trip per batch instead of one per record. */
const BATCH_SIZE = 500;

export interface DatasetInfo {
  kind: DatasetKind;
  name: string;
  provider?: string;
  license?: string;
  vintage?: string;
}

/** What a kind's importer gets to work with inside the import's transaction. */
export interface ImportContext {
  trx: Transaction<Schema>;
  dialect: Dialect;
  datasetId: number;
  importId: number;
  now: number;
}

export type ReadRecord = Extract<SourceRecord, { feature: unknown }>;

/** One kind's import logic: outcomes for a batch (one per record, in order), and optional work at the end. */
export interface Importer {
  importBatch(context: ImportContext, batch: ReadRecord[]): Promise<RecordOutcome[]>;
  finish?(context: ImportContext): Promise<void>;
}

/**
 * Runs an import all-or-nothing: one transaction holds the dataset, the import's row and every record written,
 * so a failure halfway (a crash, a bad file, Ctrl+C) leaves the database as it was. Records stream through in
 * batches; nothing holds the whole file in memory.
 */
export async function runImport(
  database: Database,
  dataset: DatasetInfo,
  source: string,
  records: AsyncIterable<SourceRecord>,
  importer: Importer,
  onProgress: (summary: ImportSummary) => void = () => {},
): Promise<ImportSummary> {
  const summary = emptySummary(dataset.kind, dataset.name);
  await database.db.transaction().execute(async (trx) => {
    const now = Date.now();
    const datasetId = await upsertDataset(trx, dataset, now);
    const { import_id } = await trx
      .insertInto("imports")
      .values({ dataset_id: datasetId, source, started_at: now })
      .returning("import_id")
      .executeTakeFirstOrThrow();
    const context: ImportContext = { trx, dialect: database.dialect, datasetId, importId: import_id, now };

    let batch: ReadRecord[] = [];
    const flush = async () => {
      const outcomes = await importer.importBatch(context, batch);
      for (const [index, record] of batch.entries()) {
        count(summary, record.number, outcomes[index] ?? { reason: "not_processed" });
      }
      batch = [];
      onProgress(summary);
    };
    for await (const record of records) {
      if ("error" in record) count(summary, record.number, { reason: "unreadable", detail: record.error });
      else batch.push(record);
      if (batch.length >= BATCH_SIZE) await flush();
    }
    await flush();
    await importer.finish?.(context);
    await trx
      .updateTable("imports")
      .set({ finished_at: Date.now(), summary: JSON.stringify(summary) })
      .where("import_id", "=", import_id)
      .execute();
  });
  return summary;
}

/** Finds the dataset by kind and name, refreshing its provenance where the import gives it, or creates it. */
async function upsertDataset(trx: Transaction<Schema>, dataset: DatasetInfo, now: number): Promise<number> {
  const provenance = {
    ...(dataset.provider === undefined ? {} : { provider: dataset.provider }),
    ...(dataset.license === undefined ? {} : { license: dataset.license }),
    ...(dataset.vintage === undefined ? {} : { vintage: dataset.vintage }),
  };
  const existing = await trx
    .selectFrom("datasets")
    .select("dataset_id")
    .where("kind", "=", dataset.kind)
    .where("name", "=", dataset.name)
    .executeTakeFirst();
  if (existing) {
    await trx
      .updateTable("datasets")
      .set({ ...provenance, updated_at: now })
      .where("dataset_id", "=", existing.dataset_id)
      .execute();
    return existing.dataset_id;
  }
  const created = await trx
    .insertInto("datasets")
    .values({ kind: dataset.kind, name: dataset.name, ...provenance, created_at: now, updated_at: now })
    .returning("dataset_id")
    .executeTakeFirstOrThrow();
  return created.dataset_id;
}
