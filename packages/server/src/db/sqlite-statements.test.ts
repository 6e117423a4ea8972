import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_DIALECT } from "../test/test-database.js";
import { withStatementCache } from "./sqlite-statements.js";

let folder: string;
let connection: SQLite.Database;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "lotline-statements-"));
  connection = new SQLite(join(folder, "statements.db"));
  connection.exec(`create table lots (id integer primary key, name text, area real, boundary blob);
    insert into lots values (1, 'corner', 412.5, x'0102'), (2, null, 98.25, null)`);
});
afterEach(() => {
  connection.close();
  rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(TEST_DIALECT !== "sqlite")("SQLite statements kept prepared", () => {
  it("answer rows as objects named by their columns, each value as SQLite holds it", () => {
    const database = withStatementCache(connection);
    const rows = database.prepare("select id, name, area, boundary as bytes from lots order by id").all([]);
    expect(rows).toEqual([
      { id: 1, name: "corner", area: 412.5, bytes: Buffer.from([1, 2]) },
      { id: 2, name: null, area: 98.25, bytes: null },
    ]);
    expect(Object.keys(rows[0] as object)).toEqual(["id", "name", "area", "bytes"]);
  });

  it("are prepared once for each text, and run again with other parameters", () => {
    const database = withStatementCache(connection);
    const text = "select name from lots where id = ?";
    const first = database.prepare(text);
    expect(first.all([1])).toEqual([{ name: "corner" }]);
    expect(database.prepare(text)).toBe(first);
    expect(database.prepare(text).all([2])).toEqual([{ name: null }]);
  });

  it("write through run, and answer what an insert returns as rows", () => {
    const database = withStatementCache(connection);
    const insert = database.prepare("insert into lots (name, area) values (?, ?)");
    expect(insert.reader).toBe(false);
    expect(insert.run(["rear", 55]).changes).toBe(1);
    const returning = database.prepare("insert into lots (name, area) values (?, ?) returning id, name");
    expect(returning.all(["side", 60])).toEqual([{ id: 4, name: "side" }]);
  });

  it("yield objects when iterated, and hand a statement being iterated to no one else", () => {
    const database = withStatementCache(connection);
    const text = "select id from lots order by id";
    const seen: unknown[] = [];
    for (const row of database.prepare(text).iterate([])) {
      seen.push(row, database.prepare(text).all([]));
    }
    expect(seen).toEqual([{ id: 1 }, [{ id: 1 }, { id: 2 }], { id: 2 }, [{ id: 1 }, { id: 2 }]]);
  });

  it("name the columns a schema change gives `select *`, on this connection or another", () => {
    const database = withStatementCache(connection);
    const everything = "select * from lots where id = 1";
    expect(database.prepare(everything).all([])).toEqual([
      { id: 1, name: "corner", area: 412.5, boundary: Buffer.from([1, 2]) },
    ]);
    // The same count of columns, renamed here: the statements kept are made again.
    database.prepare("alter table lots rename column name to label").run([]);
    expect(database.prepare(everything).all([])).toEqual([
      { id: 1, label: "corner", area: 412.5, boundary: Buffer.from([1, 2]) },
    ]);
    // A column added by another connection: SQLite prepares the kept statement again, with one column more.
    const other = new SQLite(join(folder, "statements.db"));
    other.exec("alter table lots add column zoned integer default 1");
    other.close();
    expect(database.prepare(everything).all([])).toEqual([
      { id: 1, label: "corner", area: 412.5, boundary: Buffer.from([1, 2]), zoned: 1 },
    ]);
  });

  it("begin every transaction immediate, taking the write lock as it begins", () => {
    const database = withStatementCache(connection);
    database.prepare("begin").run([]);
    const other = new SQLite(join(folder, "statements.db"), { timeout: 0 });
    expect(() => other.exec("begin immediate")).toThrow(/locked|busy/i);
    other.close();
    database.prepare("rollback").run([]);
  });
});
