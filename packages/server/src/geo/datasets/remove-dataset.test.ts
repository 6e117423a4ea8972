import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/database.js";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../../test/test-database.js";
import { addressImporter } from "../import/address-importer.js";
import { parcelImporter } from "../import/parcel-importer.js";
import { runImport } from "../import/run-import.js";
import type { SourceRecord } from "../types.js";
import { removeDataset, removeDatasetRows } from "./remove-dataset.js";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  await test?.destroy();
});

/** Lot `n`: a square of some 80 m a side, the n-th along a street. */
function lot(n: number): SourceRecord {
  const west = -71.1 + n * 0.001;
  return {
    number: n,
    feature: {
      type: "Feature",
      properties: { ML: `L-${n}` },
      geometry: {
        type: "Polygon",
        coordinates: [
          [
            [west, 42.3],
            [west + 0.001, 42.3],
            [west + 0.001, 42.3007],
            [west, 42.3007],
            [west, 42.3],
          ],
        ],
      },
    },
  };
}

function importLots(records: AsyncIterable<SourceRecord>, name = "Lots") {
  return runImport(
    test.database,
    { kind: "parcels", name },
    "lots.geojson",
    records,
    parcelImporter({ idField: "ML" }),
  );
}

/** Address `n` of a file joining each row to a lot by its id (`ML`), as an assessor's list does. */
function addressRow(n: number, lotNumber: number): SourceRecord {
  return {
    number: n,
    feature: { type: "Feature", properties: { ADDR: `${n} MAIN ST`, ML: `L-${lotNumber}` }, geometry: null },
  };
}

function importAddresses(records: AsyncIterable<SourceRecord>) {
  return runImport(
    test.database,
    { kind: "addresses", name: "Assessor" },
    "assessor.csv",
    records,
    addressImporter({ addressColumn: "ADDR", joinParcel: "ML", city: "CAMBRIDGE", state: "MA" }),
  );
}

/** Every stored address's parcel, counted by whether that parcel is still there. */
async function addressParcels(): Promise<{ none: number; present: number; gone: number }> {
  const { rows } = await sql<{ none: number; present: number; gone: number }>`select
      count(*) filter (where parcel_id is null) as none,
      count(*) filter (where parcel_id in (select parcel_id from parcels)) as present,
      count(*) filter (where parcel_id is not null and parcel_id not in (select parcel_id from parcels)) as gone
    from addresses`.execute(test.database.db);
  const [counts] = rows;
  return { none: Number(counts?.none), present: Number(counts?.present), gone: Number(counts?.gone) };
}

/**
 * Lots `from` to `to` (excluded), read by an import; with `held`, `begun` is called as the import asks for the first
 * (its transaction begun, its dataset its own) and the lots come once `held` resolves.
 */
async function* lots(
  from: number,
  to: number,
  { begun, held }: { begun?: () => void; held?: Promise<void> } = {},
): AsyncGenerator<SourceRecord> {
  begun?.();
  await held;
  for (let n = from; n < to; n++) yield lot(n);
}

/**
 * Resolves once a connection waits for a lock held by another (PostgreSQL); at once on SQLite, where a writer waits
 * for the one before it to commit.
 */
async function someoneWaitsForALock(): Promise<void> {
  if (TEST_DIALECT !== "postgres") return;
  for (let tries = 0; tries < 500; tries++) {
    const { rows } = await sql<{ waiting: number }>`select count(*) as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(test.database.db);
    if (Number(rows[0]?.waiting) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no connection came to wait for a lock within 10 s");
}

/** A promise, and what resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** The id of the dataset named `name`. */
async function datasetId(name: string): Promise<number> {
  const { dataset_id } = await test.database.db
    .selectFrom("datasets")
    .select("dataset_id")
    .where("name", "=", name)
    .executeTakeFirstOrThrow();
  return dataset_id;
}

/**
 * Removes the dataset `datasetId` in a transaction of another connection, as an import's `--replace` would, calls
 * `start` before that removal commits and commits it once a connection waits for a lock (at once on SQLite); answers
 * what `start` started, its failure left to the caller.
 */
async function startedDuringRemoval<T>(datasetId: number, start: () => Promise<T>): Promise<{ started: Promise<T> }> {
  const operator = openDatabase(test.url);
  try {
    return await operator.db.transaction().execute(async (trx) => {
      await removeDatasetRows({ trx, dialect: operator.dialect }, datasetId);
      const started = start();
      started.catch(() => {});
      await someoneWaitsForALock();
      return { started };
    });
  } finally {
    await operator.close();
  }
}

describe("removeDataset", () => {
  it("removed while an import into it runs, waits for it and leaves none of that import's rows behind", async () => {
    const { db } = test.database;
    await importLots(lots(0, 5));
    const dataset_id = await datasetId("Lots");

    // A second import begins (the dataset is its own from here), and adds lots 5–9 once let go.
    const held = signal();
    const begun = signal();
    const importing = importLots(lots(3, 10, { begun: begun.resolve, held: held.promise }));
    await begun.promise;
    // From another connection, as `lotline datasets remove` would.
    const operator = openDatabase(test.url);
    const removing = removeDataset(operator, "Lots").finally(() => operator.close());
    await someoneWaitsForALock();
    held.resolve();

    expect((await importing).imported).toBe(5);
    expect(await removing).toMatchObject({ name: "Lots", kind: "parcels", removed: 10 });
    const left = async (table: "parcels" | "imports" | "datasets") =>
      (await db.selectFrom(table).select("dataset_id").where("dataset_id", "=", dataset_id).execute()).length;
    expect({
      parcels: await left("parcels"),
      imports: await left("imports"),
      datasets: await left("datasets"),
    }).toEqual({ parcels: 0, imports: 0, datasets: 0 });
  });

  it("an import that waited for the removal of its dataset creates the dataset again, not rows of the one removed", async () => {
    const { db } = test.database;
    await importLots(lots(0, 5));
    const removed = await datasetId("Lots");

    const { started: importing } = await startedDuringRemoval(removed, () => importLots(lots(0, 3)));

    expect((await importing).imported).toBe(3);
    const { rows } = await sql<{ dataset_id: number; lots: number }>`select datasets.dataset_id,
        (select count(*) from parcels where parcels.dataset_id = datasets.dataset_id) as lots
      from datasets where name = 'Lots'`.execute(db);
    expect(rows.map((row) => Number(row.lots))).toEqual([3]);
    expect(rows[0]?.dataset_id).not.toBe(removed);
    const orphans = await sql<{ count: number }>`select count(*) as count from parcels
      where not exists (select 1 from datasets where datasets.dataset_id = parcels.dataset_id)`.execute(db);
    expect(Number(orphans.rows[0]?.count)).toBe(0);
  });

  it("of parcels, while an address import joins rows to its lots, waits for that import and clears their parcels", async () => {
    await importLots(lots(0, 5));
    await sql`delete from addresses`.execute(test.database.db);
    const held = signal();
    const begun = signal();
    // A first batch of 500 rows is joined to the lots and written; the rest come once let go.
    async function* rows(): AsyncGenerator<SourceRecord> {
      for (let n = 1; n <= 500; n++) yield addressRow(n, n % 5);
      begun.resolve();
      await held.promise;
      for (let n = 501; n <= 510; n++) yield addressRow(n, n % 5);
    }
    const importing = importAddresses(rows());
    await begun.promise;
    const operator = openDatabase(test.url);
    const removing = removeDataset(operator, "Lots").finally(() => operator.close());
    await someoneWaitsForALock();
    held.resolve();

    expect((await importing).imported).toBe(510);
    expect(await removing).toMatchObject({ kind: "parcels", removed: 5 });
    expect(await addressParcels()).toEqual({ none: 510, present: 0, gone: 0 });
  });

  it("of parcels, not yet committed, holds back an address import, which then joins no row to the lots removed", async () => {
    await importLots(lots(0, 5));
    await importLots(lots(10, 15), "Other lots");
    await sql`delete from addresses`.execute(test.database.db);
    // Twenty rows joined to the other lots, one to a lot being removed.
    async function* rows(): AsyncGenerator<SourceRecord> {
      for (let n = 1; n <= 20; n++) yield addressRow(n, 10 + (n % 5));
      yield addressRow(21, 0);
    }

    const { started: importing } = await startedDuringRemoval(await datasetId("Lots"), () => importAddresses(rows()));

    expect(await importing).toMatchObject({ imported: 20, rejected: 1, rejectedByReason: { parcel_not_found: 1 } });
    expect(await addressParcels()).toEqual({ none: 0, present: 20, gone: 0 });
  });
});
