/**
 * The audit log on SQLite: group-committed inserts and the report queries.
 *
 * @module
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { AuditWriter } from "./audit_writer.ts";
import { createGroupCommit, type GroupCommit } from "./group_commit.ts";
import {
  auditWhere,
  groupColumns,
  SQLITE_DIALECT,
  storedAuditRow,
  unionOfCveLists,
} from "./sql_filter.ts";
import type { AuditGroup, AuditRow, AuditStore, NewAuditRow } from "./types.ts";
import { auditRowFrom, SQLITE_COLUMNS } from "./row_mapping.ts";

const GROUP_COLUMNS = groupColumns(SQLITE_DIALECT);

type Row = Record<string, SQLInputValue>;

/** The SQLite audit store and its group-commit queue (drained on close). */
export interface SqliteAuditStore extends AuditStore {
  readonly queue: GroupCommit<NewAuditRow, AuditRow>;
}

/** What the SQLite audit store runs on. */
export interface SqliteAuditDeps {
  /** An open, migrated database (reads). */
  db: DatabaseSync;
  /** Where inserts go: a writer thread, or the connection above for `:memory:`. */
  writer: AuditWriter;
  now: () => Date;
  isClosed: () => boolean;
  /** Most rows of one group commit (default 256). */
  maxBatchRows?: number;
}

/** Creates the audit store. */
export function createSqliteAuditStore(deps: SqliteAuditDeps): SqliteAuditStore {
  const { db, writer, now, isClosed } = deps;
  // Timestamps come from this thread's clock (injectable), taken when the row is submitted.
  const insertAll = async (rows: NewAuditRow[]): Promise<AuditRow[]> => {
    const timed = rows.map((row) => [now().toISOString(), row] as [string, NewAuditRow]);
    const ids = await writer.write(timed);
    return timed.map(([ts, row], i) => storedAuditRow(row, ids[i], ts));
  };
  const queue = createGroupCommit(insertAll, {
    maxBatch: deps.maxBatchRows,
    pipelined: writer.pipelined,
  });

  return {
    queue,
    insert: (row) => isClosed() ? Promise.reject(new Error("store is closed")) : queue.submit(row),
    insertMany: (rows) => insertAll(rows),
    list: (filter, limit) =>
      Promise.resolve().then(() => {
        const where = auditWhere(filter, SQLITE_DIALECT);
        const rows = db
          .prepare(`SELECT * FROM audit_log ${where.sql} ORDER BY ts DESC, id DESC LIMIT ?`)
          .all(...where.params, limit) as Row[];
        return rows.map((r) => auditRowFrom(r, SQLITE_COLUMNS));
      }),
    group: (filter, by) =>
      Promise.resolve().then(() => {
        const columns = by.map((key, i) => `${GROUP_COLUMNS[key]} AS k${i}`);
        const where = auditWhere(filter, SQLITE_DIALECT);
        const select = columns.length ? `${columns.join(", ")}, ` : "";
        const groupBy = columns.length ? `GROUP BY ${by.map((_, i) => `k${i}`).join(", ")}` : "";
        const from = by.includes("cve")
          ? "audit_log, json_each(audit_log.cve_ids) AS cve"
          : "audit_log";
        const rows = db.prepare(
          `SELECT ${select}COUNT(*) AS count, MAX(max_cvss) AS max_cvss, MAX(ts) AS last_ts,
             json_group_array(DISTINCT project) AS projects,
             group_concat(cve_ids, char(31)) AS cve_lists
           FROM ${from} ${where.sql} ${groupBy}
           ORDER BY count DESC, last_ts DESC`,
        ).all(...where.params) as Row[];
        return rows
          .filter((row) => Number(row.count) > 0)
          .map((row): AuditGroup => ({
            keys: Object.fromEntries(by.map((key, i) => [key, row[`k${i}`] as string | null])),
            count: Number(row.count),
            max_cvss: row.max_cvss === null ? null : Number(row.max_cvss),
            last_ts: String(row.last_ts),
            projects: (JSON.parse(String(row.projects)) as string[]).sort(),
            cve_ids: unionOfCveLists(
              String(row.cve_lists ?? "").split("\x1f").filter(Boolean).map((list) =>
                JSON.parse(list) as string[]
              ),
            ),
          }));
      }),
    lastAlert: (pkg) =>
      Promise.resolve().then(() => {
        const row = db.prepare(
          `SELECT * FROM audit_log WHERE package = ? AND verdict = 'CVE_ALERT'
           ORDER BY ts DESC, id DESC LIMIT 1`,
        ).get(pkg) as Row | undefined;
        return row ? auditRowFrom(row, SQLITE_COLUMNS) : undefined;
      }),
  };
}
