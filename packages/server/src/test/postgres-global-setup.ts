import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

const ADMIN_URL = process.env.LOTLINE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Creates a throwaway database for this run and drops it afterwards; each test file works in its own schema. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const name = `lotline_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${ADMIN_URL} (${(error as Error).message}). Start it, set ` +
        "LOTLINE_TEST_POSTGRES_URL, or run the SQLite half alone with npm run test:sqlite.",
    );
  }
  await admin.query(`create database ${name}`);
  await admin.end();

  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  project.provide("postgresUrl", url.href);

  return async () => {
    const cleanup = new pg.Client({ connectionString: ADMIN_URL });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  };
}
