/**
 * The audit log on PostgreSQL: group commit as one multi-row INSERT per
 * batch, and the report queries.
 *
 * @module
 */
import { createGroupCommit, type GroupCommit } from "./group_commit.ts";
import type { Sql, TransactionSql } from "./postgres_connection.ts";
import {
  AUDIT_INSERT_COLUMNS,
  AUDIT_JSON_COLUMNS,
  auditInsertValues,
  auditWhere,
  POSTGRES_DIALECT,
  storedAuditRow,
} from "./sql_filter.ts";
import type { AuditRow, AuditStore, NewAuditRow } from "./types.ts";
import { auditRowFrom, POSTGRES_COLUMNS } from "./row_mapping.ts";
import type { PostgresRollups } from "./postgres_rollup.ts";
import { rollupGroup } from "./rollup_group.ts";

/** Rows per INSERT statement (19 parameters each, well below PostgreSQL's 65,535). */
const ROWS_PER_STATEMENT = 1000;

/** `($1, $2, …), ($20, …)` for `count` rows; JSON columns pass as text and are cast to jsonb. */
function valuesList(count: number): string {
  const width = AUDIT_INSERT_COLUMNS.length;
  return Array.from({ length: count }, (_, r) =>
    "(" + AUDIT_INSERT_COLUMNS.map((column, c) => {
      const n = r * width + c + 1;
      return AUDIT_JSON_COLUMNS.has(column) ? `($${n}::text)::jsonb` : `$${n}`;
    }).join(", ") + ")").join(", ");
}

/** The PostgreSQL audit store and its group-commit queue (drained on close). */
export interface PostgresAuditStore extends AuditStore {
  readonly queue: GroupCommit<NewAuditRow, AuditRow>;
  /** Inserts rows and runs `extra` in the same transaction (the outbox writes its entries so). */
  insertWith(
    rows: NewAuditRow[],
    extra: (tx: TransactionSql, stored: AuditRow[]) => Promise<void>,
  ): Promise<AuditRow[]>;
}

/** Creates the audit store on a migrated database. */
export function createPostgresAuditStore(
  sql: Sql,
  rollups: PostgresRollups,
  now: () => Date,
  isClosed: () => boolean,
): PostgresAuditStore {
  const insertAll = async (
    rows: NewAuditRow[],
    extra?: (tx: TransactionSql, stored: AuditRow[]) => Promise<void>,
  ): Promise<AuditRow[]> => {
    if (rows.length === 0) return [];
    const stamped = rows.map((row) => ({ row, ts: now().toISOString() }));
    const chunks: Array<typeof stamped> = [];
    for (let i = 0; i < stamped.length; i += ROWS_PER_STATEMENT) {
      chunks.push(stamped.slice(i, i + ROWS_PER_STATEMENT));
    }
    const late = rollups.late(stamped.map(({ ts }) => ts));
    const ids = await rollups.track(sql.begin(async (tx) => {
      const all: number[] = [];
      for (const chunk of chunks) {
        const inserted = await tx.unsafe(
          `INSERT INTO audit_log (${AUDIT_INSERT_COLUMNS.join(", ")})
           VALUES ${valuesList(chunk.length)} RETURNING id`,
          chunk.flatMap(({ row, ts }) => auditInsertValues(row, ts)),
        );
        all.push(...inserted.map((r) => Number(r.id)));
      }
      if (late.length) await rollups.invalidate(tx, late);
      if (extra) await extra(tx, stamped.map(({ row, ts }, i) => storedAuditRow(row, all[i], ts)));
      return all;
    }));
    return stamped.map(({ row, ts }, i) => storedAuditRow(row, ids[i], ts));
  };
  const queue = createGroupCommit((rows: NewAuditRow[]) => insertAll(rows));

  return {
    queue,
    insertWith: insertAll,
    insert: (row) => isClosed() ? Promise.reject(new Error("store is closed")) : queue.submit(row),
    insertMany: (rows) => insertAll(rows),
    async list(filter, limit) {
      const where = auditWhere(filter, POSTGRES_DIALECT);
      const rows = await sql.unsafe(
        `SELECT * FROM audit_log ${where.sql} ORDER BY ts DESC, id DESC
         LIMIT $${where.params.length + 1}`,
        [...where.params, limit],
      );
      return rows.map((r) => auditRowFrom(r, POSTGRES_COLUMNS));
    },
    group: (filter, by) => rollupGroup(rollups.backend, filter, by),
    async lastAlert(pkg) {
      const rows = await sql.unsafe(
        `SELECT * FROM audit_log WHERE package = $1 AND verdict = 'CVE_ALERT'
         ORDER BY ts DESC, id DESC LIMIT 1`,
        [pkg],
      );
      return rows.length ? auditRowFrom(rows[0], POSTGRES_COLUMNS) : undefined;
    },
  };
}
