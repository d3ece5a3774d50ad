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
  auditValues,
  auditWhere,
  POSTGRES_DIALECT,
  storedAuditRow,
} from "./sql_filter.ts";
import type { AuditRow, AuditStore, NewAuditRow } from "./types.ts";
import { auditRowFrom, POSTGRES_COLUMNS } from "./row_mapping.ts";
import type { PostgresRollups } from "./postgres_rollup.ts";
import { rollupGroup } from "./rollup_group.ts";

/** Rows per INSERT statement (one JSON document each). */
const ROWS_PER_STATEMENT = 1000;

/** Batches committing at once (of the pool's 10 connections). */
const MAX_COMMITS_IN_FLIGHT = 2;

const COLUMNS = AUDIT_INSERT_COLUMNS.join(", ");

/** Columns that are not text, with the type their JSON text is cast to. */
const CASTS: Readonly<Record<string, string>> = { ts: "timestamptz", max_cvss: "float8" };

/** The SQL expression reading column `column` (position `i`) from one row array `r`. */
function fromRowArray(column: string, i: number): string {
  // A JSON column takes its document as is (JSON null is SQL NULL, as a nullable `data`).
  if (AUDIT_JSON_COLUMNS.has(column)) return `NULLIF(r -> ${i}, 'null'::jsonb)`;
  return CASTS[column] ? `(r ->> ${i})::${CASTS[column]}` : `r ->> ${i}`;
}

/**
 * One statement for every batch size: the rows travel as one JSON array of
 * row arrays (values in {@link AUDIT_INSERT_COLUMNS} order), so the server
 * parses and plans it once per connection and the client serialises a batch
 * with one `JSON.stringify`. Arrays rather than objects keyed by column
 * (`jsonb_populate_recordset`): half the server's CPU per row, since the
 * column names are not parsed per row and JSON columns are not re-parsed
 * from text (issue 34, docs/performance.md). Identity values follow the
 * array order.
 */
const INSERT_SQL = `WITH inserted AS (
  INSERT INTO audit_log (${COLUMNS})
  SELECT ${AUDIT_INSERT_COLUMNS.map(fromRowArray).join(", ")}
  FROM jsonb_array_elements($1::text::jsonb) WITH ORDINALITY AS rows (r, n)
  ORDER BY n
  RETURNING id)
  SELECT string_agg(id::text, ',' ORDER BY id) AS ids FROM inserted`;

/** The rows as one JSON array of row arrays; JSON columns embedded as documents. */
function jsonRows(chunk: Array<{ row: NewAuditRow; ts: string }>): string {
  return JSON.stringify(chunk.map(({ row, ts }) => auditValues(row, ts)));
}

/** Inserts stamped rows with one statement; returns their ids in the rows' order. */
async function insertChunk(
  sql: Pick<Sql, "unsafe">,
  chunk: Array<{ row: NewAuditRow; ts: string }>,
): Promise<number[]> {
  // One answer row for the whole batch (not one message per row): the ids, ascending.
  const [{ ids }] = await sql.unsafe(INSERT_SQL, [jsonRows(chunk)], { prepare: true });
  // Identity values are drawn in the array's order: ascending ids are the rows in order.
  return String(ids).split(",").map(Number);
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
    // The common case, one statement and no stored rollup to drop, is atomic
    // on its own: no BEGIN and COMMIT round trips around it. A caller's `extra`
    // (the alert outbox) needs the transaction.
    const ids = chunks.length === 1 && late.length === 0 && !extra
      ? await rollups.track(insertChunk(sql, chunks[0]))
      : await rollups.track(sql.begin(async (tx) => {
        const all: number[] = [];
        for (const chunk of chunks) all.push(...await insertChunk(tx, chunk));
        if (late.length) await rollups.invalidate(tx, late);
        if (extra) {
          await extra(tx, stamped.map(({ row, ts }, i) => storedAuditRow(row, all[i], ts)));
        }
        return all;
      }));
    return stamped.map(({ row, ts }, i) => storedAuditRow(row, ids[i], ts));
  };
  // A few batches overlap on the pool's connections (a commit waits on the network).
  const queue = createGroupCommit((rows: NewAuditRow[]) => insertAll(rows), {
    maxInFlight: MAX_COMMITS_IN_FLIGHT,
  });

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
