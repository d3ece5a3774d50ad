/**
 * Approval requests on SQLite.
 *
 * @module
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { sqliteRowById } from "./sqlite_rows.ts";
import type { Transaction } from "./sqlite_transaction.ts";
import { approvalInsert, approvalWhere, SQLITE_DIALECT } from "./sql_filter.ts";
import type { ApprovalRequest, ApprovalStore, NewApprovalRequest } from "./types.ts";
import { approvalFrom, SQLITE_COLUMNS } from "./row_mapping.ts";

type Row = Record<string, SQLInputValue>;

/** Inserts one request pending review (callers choose the transaction). */
export function insertSqliteApproval(
  db: DatabaseSync,
  request: NewApprovalRequest,
  created_at: string,
): ApprovalRequest {
  const insert = approvalInsert(request, created_at, SQLITE_DIALECT);
  const result = db.prepare(insert.sql).run(...insert.params);
  return {
    ...request,
    source: request.source ?? null,
    id: Number(result.lastInsertRowid),
    status: "PENDING_REVIEW" as const,
    created_at,
    decided_at: null,
    proposal_status: null,
    proposal_detail: null,
    decided_by: null,
    decision_reason: null,
  };
}

/** Creates the approval store on an open, migrated database. */
export function createSqliteApprovalStore(
  db: DatabaseSync,
  inTransaction: Transaction,
  now: () => Date,
): ApprovalStore {
  return {
    create: (request) =>
      Promise.resolve().then(() => insertSqliteApproval(db, request, now().toISOString())),
    list: (filter) =>
      Promise.resolve().then(() => {
        const where = approvalWhere(filter, SQLITE_DIALECT);
        const rows = db.prepare(
          `SELECT * FROM approval_requests ${where.sql} ORDER BY created_at DESC, id DESC`,
        ).all(...where.params) as Row[];
        return rows.map((r) => approvalFrom(r, SQLITE_COLUMNS));
      }),
    approvePackages: (packages, decidedAt) =>
      Promise.resolve().then(() => {
        if (packages.length === 0) return 0;
        const update = db.prepare(
          `UPDATE approval_requests SET status = 'APPROVED', decided_at = ?
           WHERE status = 'PENDING_REVIEW' AND package = ?`,
        );
        return inTransaction(
          () => packages.reduce((n, pkg) => n + Number(update.run(decidedAt, pkg).changes), 0),
        );
      }),
    get: (id) =>
      Promise.resolve().then(() => {
        const row = sqliteRowById(db, "approval_requests", id);
        return row ? approvalFrom(row, SQLITE_COLUMNS) : undefined;
      }),
    recordProposal: (id, status, detail) =>
      Promise.resolve().then(() => {
        db.prepare(
          "UPDATE approval_requests SET proposal_status = ?, proposal_detail = ? WHERE id = ?",
        ).run(status, detail, id);
      }),
    decide: (id, decision) =>
      Promise.resolve().then(() => {
        db.prepare(
          `UPDATE approval_requests SET status = ?, decided_at = ?, decided_by = ?,
             decision_reason = ? WHERE id = ? AND status = 'PENDING_REVIEW'`,
        ).run(decision.status, decision.at, decision.by, decision.reason, id);
        const row = sqliteRowById(db, "approval_requests", id);
        return row ? approvalFrom(row, SQLITE_COLUMNS) : undefined;
      }),
  };
}
