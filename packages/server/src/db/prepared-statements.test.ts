import { createRequire } from "node:module";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../test/test-database.js";
import { keepStatementsPrepared, StatementNames } from "./prepared-statements.js";

describe("the names of recurring statements", () => {
  it("are given the second time a text runs, one for each text, and no more than the bound", () => {
    const names = new StatementNames(2);
    expect(names.nameOf("select $1")).toBeUndefined();
    const first = names.nameOf("select $1");
    expect(first).toBeDefined();
    expect(names.nameOf("select $1")).toBe(first);
    expect(names.nameOf("select $1, $2")).toBeUndefined();
    const second = names.nameOf("select $1, $2");
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    // The bound reached: a third text stays unnamed however often it runs; the named keep their names.
    for (let run = 0; run < 3; run++) expect(names.nameOf("select $1, $2, $3")).toBeUndefined();
    expect([names.nameOf("select $1"), names.nameOf("select $1, $2")]).toEqual([first, second]);
  });

  it("are new for a text forgotten, never one given before", () => {
    const names = new StatementNames();
    const twice = (text: string) => [names.nameOf(text), names.nameOf(text)][1];
    const first = twice("select $1");
    names.forget("select $1");
    expect(names.nameOf("select $1")).toBeUndefined();
    const again = names.nameOf("select $1");
    const other = twice("select $2");
    names.forgetAll();
    const third = twice("select $1");
    expect(new Set([first, again, other, third]).size).toBe(4);
  });
});

describe.runIf(TEST_DIALECT === "postgres")("statements on a PostgreSQL connection", () => {
  let test: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.destroy());
  // A connection with names of its own: the process's may be taken by the statements of other tests.
  beforeEach(async () => {
    client = await connect(test.url);
    keepStatementsPrepared(client as pg.PoolClient, new StatementNames());
  });
  afterEach(() => client.end());

  /** What the query layer sends: a text and its parameters. */
  const rowsOf = async (text: string, values: unknown[] = []) => (await client.query(text, values)).rows;

  it("are kept prepared once they recur, with their parameters, and give the same answers", async () => {
    const answers = [];
    for (const n of [1, 2, 3])
      answers.push(...(await rowsOf("select cast($1 as integer) + 1 as next -- recurring", [n])));
    answers.push(...(await rowsOf("select cast($1 as integer) + 2 as next -- once", [5])));
    expect(answers).toEqual([{ next: 2 }, { next: 3 }, { next: 4 }, { next: 7 }]);
    const prepared = (await rowsOf("select statement from pg_prepared_statements")).map((row) => row.statement);
    expect(prepared.filter((text) => text.includes("-- recurring"))).toHaveLength(1);
    expect(prepared.filter((text) => text.includes("-- once"))).toEqual([]);
    // A statement without parameters goes by the simple protocol: nothing to prepare.
    expect(prepared.filter((text) => text.includes("pg_prepared_statements"))).toEqual([]);
  });

  it("are read with their new columns after a migration, here or in another process", async () => {
    await rowsOf("create table changing (id integer primary key, a integer)");
    await rowsOf("insert into changing values (1, 10)");
    const row = async () => (await rowsOf("select * from changing where id = $1", [1]))[0];
    const inTransaction = async (work: () => Promise<unknown>) => {
      await rowsOf("begin");
      try {
        return await work();
      } finally {
        await rowsOf("rollback");
      }
    };
    for (let run = 0; run < 3; run++) expect(await row()).toEqual({ id: 1, a: 10 });
    // A migration of this process, in its transaction: the statement is prepared anew.
    await inTransaction(async () => {
      await rowsOf("alter table changing add column b integer default 20");
      for (let run = 0; run < 3; run++) expect(await row()).toEqual({ id: 1, a: 10, b: 20 });
    });
    await rowsOf("alter table changing add column b integer default 20");
    for (let run = 0; run < 3; run++) expect(await row()).toEqual({ id: 1, a: 10, b: 20 });

    // Another process's, which this one does not see: alone, the statement is run again unnamed.
    await otherProcess(test.url, "alter table changing add column c integer default 30");
    for (let run = 0; run < 3; run++) expect(await row()).toEqual({ id: 1, a: 10, b: 20, c: 30 });

    // In a transaction, PostgreSQL's refusal ends it; the next transaction reads the new columns.
    await otherProcess(test.url, "alter table changing add column d integer default 40");
    await expect(inTransaction(row)).rejects.toThrow(/must not change result type/);
    for (let run = 0; run < 3; run++) expect(await inTransaction(row)).toEqual({ id: 1, a: 10, b: 20, c: 30, d: 40 });
  });
});

async function connect(url: string): Promise<pg.Client> {
  const { Client } = createRequire(import.meta.url)("pg") as typeof pg;
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Runs `statement` on a connection of its own, as another process would. */
async function otherProcess(url: string, statement: string): Promise<void> {
  const client = await connect(url);
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
