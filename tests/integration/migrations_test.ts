/**
 * The schema steps (src/store/schema_steps.ts) bring a real SQLite file and a
 * real PostgreSQL database to the same tables and columns, each at its own
 * dialect's latest version.
 */
import { deepEqual, equal, throws } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { openPostgresStore } from "../../src/store/postgres.ts";
import { MIGRATIONS, migrationsFor } from "../../src/store/migrations.ts";
import { POSTGRES_MIGRATIONS } from "../../src/store/postgres_migrations.ts";
import { createScratchDatabase, queryPostgres } from "../helpers/postgres.ts";

/** Tables only one dialect has, by design (bookkeeping and multi-instance claims). */
const BOOKKEEPING = new Set(["schema_migrations", "sqlite_sequence"]);
const POSTGRES_ONLY = new Set(["scanner_passes"]);

type Shape = Record<string, string[]>;

function sqliteShape(path: string): { shape: Shape; versions: number[] } {
  const db = new DatabaseSync(path);
  try {
    const tables = db.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    ).all().map((r) => String(r.name)).filter((t) => !BOOKKEEPING.has(t));
    const shape: Shape = {};
    for (const table of tables) {
      shape[table] = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table)
        .map((r) => String(r.name)).sort();
    }
    const versions = db.prepare("SELECT version FROM schema_migrations ORDER BY version").all()
      .map((r) => Number(r.version));
    return { shape, versions };
  } finally {
    db.close();
  }
}

async function postgresShape(url: string): Promise<{ shape: Shape; versions: number[] }> {
  const rows = await queryPostgres(
    url,
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' ORDER BY table_name, column_name`,
  );
  const shape: Shape = {};
  for (const row of rows) {
    const table = String(row.table_name);
    if (BOOKKEEPING.has(table) || POSTGRES_ONLY.has(table)) continue;
    (shape[table] ??= []).push(String(row.column_name));
  }
  const versions =
    (await queryPostgres(url, "SELECT version FROM schema_migrations ORDER BY version"))
      .map((r) => Number(r.version));
  return { shape, versions };
}

Deno.test("both dialects reach the same tables and columns at their latest version", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-migrations-" });
  const db = await createScratchDatabase("migrations");
  try {
    const path = `${dir}/policyd.db`;
    await openSqliteStore(path).close();
    await (await openPostgresStore(db.url)).close();
    const sqlite = sqliteShape(path);
    const pg = await postgresShape(db.url);
    deepEqual(sqlite.versions, MIGRATIONS.map((m) => m.version));
    deepEqual(pg.versions, POSTGRES_MIGRATIONS.map((m) => m.version));
    deepEqual(Object.keys(sqlite.shape).sort(), Object.keys(pg.shape).sort());
    deepEqual(sqlite.shape, pg.shape);
    equal(sqlite.shape.audit_log.includes("threats"), true);
  } finally {
    await db.drop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("applied versions keep their numbers per dialect", () => {
  equal(MIGRATIONS.at(-1)?.version, 7);
  equal(POSTGRES_MIGRATIONS.at(-1)?.version, 8);
  equal(
    POSTGRES_MIGRATIONS[1].name,
    "scanner passes: one claim per scheduled tick across instances",
  );
  equal(MIGRATIONS[3].name, POSTGRES_MIGRATIONS[4].name); // the rollups: SQLite 4, PostgreSQL 5
});

Deno.test("a step list out of order or missing a dialect's SQL is refused", () => {
  throws(
    () =>
      migrationsFor("sqlite", [
        { name: "a", versions: { sqlite: 2 }, sql: { both: "" } },
        { name: "b", versions: { sqlite: 1 }, sql: { both: "" } },
      ]),
    /schema step "b": sqlite version 1 after 2/,
  );
  throws(
    () =>
      migrationsFor("postgres", [{ name: "c", versions: { postgres: 1 }, sql: { sqlite: "" } }]),
    /schema step "c" has no postgres SQL/,
  );
});
