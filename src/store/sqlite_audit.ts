/**
 * The audit log on SQLite: group-committed inserts and the report queries.
 *
 * @module
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { createGroupCommit, type GroupCommit } from "./group_commit.ts";
import type { Transaction } from "./sqlite_transaction.ts";
import {
  AUDIT_INSERT_COLUMNS,
  auditInsertValues,
  auditWhere,
  SQLITE_DIALECT,
  storedAuditRow,
} from "./sql_filter.ts";
import type { AuditRow, AuditStore, NewAuditRow } from "./types.ts";
import { auditRowFrom, SQLITE_COLUMNS } from "./row_mapping.ts";
import { rollupGroup } from "./rollup_group.ts";
import { createSqliteRollups } from "./sqlite_rollup.ts";
import { insertSql } from "./insert_sql.ts";

type Row = Record<string, SQLInputValue>;

const AUDIT_INSERT = insertSql("audit_log", AUDIT_INSERT_COLUMNS);

/** The SQLite audit store and its group-commit queue (drained on close). */
export interface SqliteAuditStore extends AuditStore {
  readonly queue: GroupCommit<NewAuditRow, AuditRow>;
  /** Inserts one row at once; only inside a transaction (the outbox writes its entries with it). */
  insertInTransaction(row: NewAuditRow): AuditRow;
}

/** What the SQLite audit store runs on. */
export interface SqliteAuditDeps {
  /** An open, migrated database. */
  db: DatabaseSync;
  inTransaction: Transaction;
  now: () => Date;
  isClosed: () => boolean;
  /** Most rows of one group commit (default 256). */
  maxBatchRows?: number;
}

/** Creates the audit store. */
export function createSqliteAuditStore(deps: SqliteAuditDeps): SqliteAuditStore {
  const { db, inTransaction, now, isClosed } = deps;
  const insertAudit = db.prepare(AUDIT_INSERT);
  const rollups = createSqliteRollups(db, inTransaction);
  const insertOne = (row: NewAuditRow): AuditRow => {
    const ts = now().toISOString();
    rollups.noteInsert(ts);
    const result = insertAudit.run(...auditInsertValues(row, ts));
    return storedAuditRow(row, Number(result.lastInsertRowid), ts);
  };
  const insertAll = (rows: NewAuditRow[]) => inTransaction(() => rows.map(insertOne));
  const queue = createGroupCommit(insertAll, { maxBatch: deps.maxBatchRows });

  return {
    queue,
    insertInTransaction: insertOne,
    insert: (row) => isClosed() ? Promise.reject(new Error("store is closed")) : queue.submit(row),
    insertMany: (rows) => Promise.resolve().then(() => insertAll(rows)),
    list: (filter, limit) =>
      Promise.resolve().then(() => {
        const where = auditWhere(filter, SQLITE_DIALECT);
        const rows = db
          .prepare(`SELECT * FROM audit_log ${where.sql} ORDER BY ts DESC, id DESC LIMIT ?`)
          .all(...where.params, limit) as Row[];
        return rows.map((r) => auditRowFrom(r, SQLITE_COLUMNS));
      }),
    group: (filter, by) => rollupGroup(rollups.backend, filter, by),
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
