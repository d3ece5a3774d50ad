/**
 * The registry change log on PostgreSQL (migration 7).
 *
 * @module
 */
import type { Sql } from "./postgres_connection.ts";
import type { ChangeStore } from "./types.ts";
import {
  CHANGE_INSERT_COLUMNS,
  changeFrom,
  changeValues,
  POSTGRES_COLUMNS,
} from "./row_mapping.ts";
import { insertSql } from "./insert_sql.ts";

/** Creates the change log on a migrated database. */
export function createPostgresChangeStore(sql: Sql, now: () => Date): ChangeStore {
  return {
    async record(change) {
      const insert = insertSql(
        "registry_changes",
        CHANGE_INSERT_COLUMNS,
        (column, n) => column === "before" || column === "after" ? `$${n}::jsonb` : `$${n}`,
      );
      const [row] = await sql.unsafe(
        `${insert} RETURNING *`,
        changeValues(change, now().toISOString()),
      );
      return changeFrom(row, POSTGRES_COLUMNS);
    },
    async get(id) {
      const rows = await sql.unsafe(`SELECT * FROM registry_changes WHERE id = $1`, [id]);
      return rows.length ? changeFrom(rows[0], POSTGRES_COLUMNS) : undefined;
    },
    async list(filter, limit) {
      const parts: string[] = [];
      const params: Array<string | number> = [];
      if (filter.package) {
        params.push(filter.package);
        parts.push(`package = $${params.length}`);
      }
      if (filter.beforeId !== undefined) {
        params.push(filter.beforeId);
        parts.push(`id < $${params.length}`);
      }
      params.push(limit);
      const where = parts.length ? `WHERE ${parts.join(" AND ")}` : "";
      const rows = await sql.unsafe(
        `SELECT * FROM registry_changes ${where} ORDER BY id DESC LIMIT $${params.length}`,
        params,
      );
      return rows.map((r) => changeFrom(r, POSTGRES_COLUMNS));
    },
  };
}
