/**
 * The registry change log on PostgreSQL (migration 7).
 *
 * @module
 */
import type { Sql } from "./postgres_connection.ts";
import type { ChangeStore } from "./types.ts";
import { changeFrom, POSTGRES_COLUMNS } from "./row_mapping.ts";

/** Creates the change log on a migrated database. */
export function createPostgresChangeStore(sql: Sql, now: () => Date): ChangeStore {
  const json = (value: unknown) => value === null ? null : JSON.stringify(value);
  return {
    async record(change) {
      const [row] = await sql.unsafe(
        `INSERT INTO registry_changes (ts, package, kind, before, after, actor, proposer,
           previous_version, registry_version, url, reverts, request_id, detail)
         VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8, $9, $10, $11, $12, $13)
         RETURNING *`,
        [
          now().toISOString(),
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
        ],
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
