/**
 * A uniquely named PostgreSQL database per test, on the real server at
 * 127.0.0.1:5432 (trust auth). A missing server fails the test: it is a
 * prerequisite of the suite, never a skip.
 *
 * @module
 */
import postgres from "postgres";

/** The server the tests use; `POLICYD_TEST_POSTGRES` overrides it (no database path). */
export const TEST_POSTGRES_SERVER = Deno.env.get("POLICYD_TEST_POSTGRES") ??
  "postgres://postgres@127.0.0.1:5432";

/** A scratch database. */
export interface ScratchDatabase {
  name: string;
  /** `postgres://…/<name>` */
  url: string;
  /** Drops the database (terminating leftover connections). */
  drop(): Promise<void>;
}

async function admin<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(`${TEST_POSTGRES_SERVER}/postgres`, {
    max: 1,
    connect_timeout: 5,
    onnotice: () => {},
  });
  try {
    return await work(sql);
  } catch (error) {
    throw new Error(
      `PostgreSQL at ${TEST_POSTGRES_SERVER} is needed by this test: ${(error as Error).message}`,
    );
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** Creates a database named `policyd_test_<label>_<random>`. */
export async function createScratchDatabase(label = "t"): Promise<ScratchDatabase> {
  const name = `policyd_test_${label.replace(/\W/g, "_")}_${crypto.randomUUID().slice(0, 8)}`;
  await admin((sql) => sql.unsafe(`CREATE DATABASE "${name}"`));
  return {
    name,
    url: `${TEST_POSTGRES_SERVER}/${name}`,
    drop: () =>
      admin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

/** Runs one query against a database through its own short-lived connection. */
export async function queryPostgres(
  url: string,
  query: string,
  params: Array<string | number> = [],
): Promise<Record<string, unknown>[]> {
  const sql = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    return [...await sql.unsafe(query, params)];
  } finally {
    await sql.end({ timeout: 1 });
  }
}
