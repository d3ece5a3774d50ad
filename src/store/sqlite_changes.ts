/**
 * The registry change log on SQLite (migration 7).
 *
 * @module
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { sqliteRowById } from "./sqlite_rows.ts";
import type { ChangeStore } from "./types.ts";
import { CHANGE_INSERT_COLUMNS, changeFrom, changeValues, SQLITE_COLUMNS } from "./row_mapping.ts";
import { insertSql } from "./insert_sql.ts";

type Row = Record<string, SQLInputValue>;

/** Creates the change log on an open, migrated database. */
export function createSqliteChangeStore(db: DatabaseSync, now: () => Date): ChangeStore {
  return {
    record: (change) =>
      Promise.resolve().then(() => {
        const ts = now().toISOString();
        const result = db.prepare(
          insertSql("registry_changes", CHANGE_INSERT_COLUMNS),
        ).run(...changeValues(change, ts));
        return { ...change, id: Number(result.lastInsertRowid), ts };
      }),
    get: (id) =>
      Promise.resolve().then(() => {
        const row = sqliteRowById(db, "registry_changes", id);
        return row ? changeFrom(row, SQLITE_COLUMNS) : undefined;
      }),
    list: (filter, limit) =>
      Promise.resolve().then(() => {
        const parts: string[] = [];
        const params: SQLInputValue[] = [];
        if (filter.package) {
          parts.push("package = ?");
          params.push(filter.package);
        }
        if (filter.beforeId !== undefined) {
          parts.push("id < ?");
          params.push(filter.beforeId);
        }
        const where = parts.length ? `WHERE ${parts.join(" AND ")}` : "";
        const rows = db.prepare(
          `SELECT * FROM registry_changes ${where} ORDER BY id DESC LIMIT ?`,
        ).all(...params, limit) as Row[];
        return rows.map((r) => changeFrom(r, SQLITE_COLUMNS));
      }),
  };
}
