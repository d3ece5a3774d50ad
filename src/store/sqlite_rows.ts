/**
 * Reading one SQLite row by its id, shared by the stores of the tables keyed
 * by `id`.
 *
 * @module
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";

/** A raw SQLite row. */
export type SqliteRow = Record<string, SQLInputValue>;

/** The row of `table` with this `id`, or undefined. `table` is a constant of the caller. */
export function sqliteRowById(db: DatabaseSync, table: string, id: number): SqliteRow | undefined {
  return db.prepare(`SELECT * FROM ${table} WHERE id = ?`).get(id) as SqliteRow | undefined;
}
