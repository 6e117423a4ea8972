import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../db/database.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { addressLine } from "../store/address-line.js";
import { importFile } from "./import-file.js";
import { ImportRefusedError } from "./import-refused.js";

/**
 * A first load of a namespace's addresses finds the rows it wrote itself without seeking the street index (on SQLite
 * it goes without the index and builds it at the end): it must store exactly what a load into a namespace that
 * already holds addresses stores, where every address is sought.
 */

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "lotline-first-load-"));
});
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

const TOWNS = [
  { name: "Elmwood", at: [-98, 41.5] },
  { name: "Oakdale", at: [-98.2, 41.6] },
  { name: "Ashby", at: [-98.4, 41.7] },
] as const;

/**
 * 600 addresses, then each again 500 rows or more later (batches apart) in one of four forms: the same line; with a
 * ZIP code (the same address, fuller); at the same street and number in another town (another address); with a unit
 * (another address). With `towns` false, no line names its town.
 */
function addressFile(name: string, towns: boolean): string {
  const line = (n: number, town: number, extra: { zip?: boolean; unit?: boolean } = {}) => {
    const { name: townName, at } = TOWNS[town % TOWNS.length] as (typeof TOWNS)[number];
    const street = `${n} Maple St${extra.unit ? " Apt 2" : ""}`;
    const text = towns ? `${street}, ${townName}, KS${extra.zip ? " 67501" : ""}` : street;
    // Each town's addresses a few metres apart around its point.
    return `"${text}",${at[0] + (n % 50) * 1e-5},${at[1]}`;
  };
  const rows = Array.from({ length: 600 }, (_, i) => line(i + 1, i));
  for (let i = 0; i < 600; i++) {
    const form = i % 4;
    rows.push(line(i + 1, form === 2 ? i + 1 : i, { zip: form === 1, unit: form === 3 }));
  }
  const path = join(folder, name);
  writeFileSync(path, ["address,x,y", ...rows].join("\n"));
  return path;
}

const importAddresses = (database: Database, file: string, name: string, rules = {}) =>
  importFile(database, {
    kind: "addresses",
    file,
    name,
    addressColumn: "address",
    read: { lonColumn: "x", latColumn: "y" },
    rules,
  });

async function storedRows(database: Database, name: string) {
  const rows = await database.db
    .selectFrom("addresses")
    .innerJoin("datasets", "datasets.dataset_id", "addresses.dataset_id")
    .selectAll("addresses")
    .where("datasets.name", "=", name)
    .execute();
  return rows
    .map((row) => ({ line: addressLine(row), lon: row.lon, lat: row.lat, parcel_id: row.parcel_id }))
    .sort((a, b) => a.line.localeCompare(b.line) || a.lon - b.lon);
}

async function indexesOfAddresses(database: Database): Promise<string[]> {
  const query =
    database.dialect === "sqlite"
      ? sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'addresses'`
      : sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'addresses'
          and schemaname = current_schema()`;
  const { rows } = await query.execute(database.db);
  return rows.map((row) => row.name).sort();
}

describe("a first load of a namespace's addresses", () => {
  let first: TestDatabase;
  let later: TestDatabase;
  beforeEach(async () => {
    [first, later] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });
  afterEach(async () => {
    await Promise.all([first?.destroy(), later?.destroy()]);
  });

  it.each([
    ["naming their towns", true],
    ["naming none", false],
  ])("stores what a load that seeks every address stores, its lines %s", async (label, towns) => {
    const file = addressFile(`maple-${label}.csv`, towns);
    const name = `Maple ${label}`;
    const indexes = await indexesOfAddresses(first.database);
    const firstSummary = await importAddresses(first.database, file, name);
    // Here the namespace already holds an address, far away: every address of the file is sought.
    const elsewhere = join(folder, `elsewhere-${label}.csv`);
    writeFileSync(elsewhere, `address,x,y\n"1 Distant Rd, Faraway, KS",-99,40\n`);
    await importAddresses(later.database, elsewhere, `Elsewhere ${label}`);
    const laterSummary = await importAddresses(later.database, file, name);

    const counts = (summary: typeof firstSummary) => ({
      read: summary.read,
      imported: summary.imported,
      updated: summary.updated,
      merged: summary.merged,
      rejected: summary.rejected,
    });
    // The exact repeats and the fuller forms are merged; another town's address and a unit are addresses of their own.
    expect(counts(firstSummary)).toEqual(
      towns
        ? { read: 1200, imported: 900, updated: 0, merged: 300, rejected: 0 }
        : { read: 1200, imported: 750, updated: 0, merged: 450, rejected: 0 },
    );
    expect(counts(laterSummary)).toEqual(counts(firstSummary));
    expect(await storedRows(first.database, name)).toEqual(await storedRows(later.database, name));
    // The indexes it went without are back, as they were.
    expect(await indexesOfAddresses(first.database)).toEqual(indexes);
    expect(indexes).toEqual(expect.arrayContaining(["addresses_by_street", "addresses_by_parcel"]));
  });

  it("refused, leaves no row and the indexes as they were", async () => {
    const file = join(folder, "refused.csv");
    const rows = Array.from({ length: 1100 }, (_, i) => `"${i + 1} Cedar Ln, Elmwood, KS",-98,41.5`);
    writeFileSync(file, ["address,x,y", ...rows, "PO Box 77,-98,41.5"].join("\n"));
    const indexes = await indexesOfAddresses(first.database);
    await expect(importAddresses(first.database, file, "Cedar", { maxRejected: 0 })).rejects.toBeInstanceOf(
      ImportRefusedError,
    );
    const { count } = await first.database.db
      .selectFrom("addresses")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(0);
    expect(await indexesOfAddresses(first.database)).toEqual(indexes);
  });
});
