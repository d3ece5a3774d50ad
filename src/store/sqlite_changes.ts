/**
 * The registry change log on SQLite (migration 7).
 *
 * @module
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { ChangeStore } from "./types.ts";
import { changeFrom, SQLITE_COLUMNS } from "./row_mapping.ts";

type Row = Record<string, SQLInputValue>;

/** Creates the change log on an open, migrated database. */
export function createSqliteChangeStore(db: DatabaseSync, now: () => Date): ChangeStore {
  const json = (value: unknown) => value === null ? null : JSON.stringify(value);
  return {
    record: (change) =>
      Promise.resolve().then(() => {
        const ts = now().toISOString();
        const result = db.prepare(
          `INSERT INTO registry_changes (ts, package, kind, before, after, actor, proposer,
             previous_version, registry_version, url, reverts, request_id, detail)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          ts,
          change.package,
          change.kind,
          json(change.before),
          json(change.after),
          change.actor,
          change.proposer,
          change.previous_version,
          change.registry_version,
          change.url,
          change.reverts,
          change.request_id,
          change.detail,
        );
        return { ...change, id: Number(result.lastInsertRowid), ts };
      }),
    get: (id) =>
      Promise.resolve().then(() => {
        const row = db.prepare("SELECT * FROM registry_changes WHERE id = ?").get(id) as
          | Row
          | undefined;
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
