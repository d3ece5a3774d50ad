/**
 * Approval requests on PostgreSQL.
 *
 * @module
 */
import type { Sql, TransactionSql } from "./postgres_connection.ts";
import { approvalInsert, approvalWhere, POSTGRES_DIALECT } from "./sql_filter.ts";
import type { ApprovalRequest, ApprovalStore, NewApprovalRequest } from "./types.ts";
import { approvalFrom, POSTGRES_COLUMNS } from "./row_mapping.ts";

type Row = Record<string, unknown>;

/** Inserts one request pending review, on the pool or inside a transaction. */
export async function insertPostgresApproval(
  sql: Sql | TransactionSql,
  request: NewApprovalRequest,
  created_at: string,
): Promise<ApprovalRequest> {
  const insert = approvalInsert(request, created_at, POSTGRES_DIALECT);
  const [row] = await sql.unsafe(`${insert.sql} RETURNING *`, insert.params);
  return approvalFrom(row, POSTGRES_COLUMNS);
}

/** Creates the approval store on a migrated database. */
export function createPostgresApprovalStore(sql: Sql, now: () => Date): ApprovalStore {
  return {
    create: (request) => insertPostgresApproval(sql, request, now().toISOString()),
    async list(filter) {
      const where = approvalWhere(filter, POSTGRES_DIALECT);
      const rows = await sql.unsafe(
        `SELECT * FROM approval_requests ${where.sql} ORDER BY created_at DESC, id DESC`,
        where.params,
      );
      return rows.map((r) => approvalFrom(r, POSTGRES_COLUMNS));
    },
    async approvePackages(packages, decidedAt) {
      if (packages.length === 0) return 0;
      const result = await sql.unsafe(
        `UPDATE approval_requests SET status = 'APPROVED', decided_at = $1
         WHERE status = 'PENDING_REVIEW' AND package = ANY($2::text[])`,
        [decidedAt, packages],
      );
      return result.count;
    },
    async get(id) {
      const rows = await sql.unsafe(`SELECT * FROM approval_requests WHERE id = $1`, [id]);
      return rows.length ? approvalFrom(rows[0], POSTGRES_COLUMNS) : undefined;
    },
    async recordProposal(id, status, detail) {
      await sql.unsafe(
        `UPDATE approval_requests SET proposal_status = $1, proposal_detail = $2 WHERE id = $3`,
        [status, detail, id],
      );
    },
    async decide(id, decision) {
      const rows = await sql.unsafe(
        `UPDATE approval_requests SET status = $1, decided_at = $2, decided_by = $3,
           decision_reason = $4 WHERE id = $5 AND status = 'PENDING_REVIEW' RETURNING *`,
        [decision.status, decision.at, decision.by, decision.reason, id],
      );
      if (rows.length) return approvalFrom(rows[0], POSTGRES_COLUMNS);
      const current = await sql.unsafe(`SELECT * FROM approval_requests WHERE id = $1`, [id]);
      return current.length ? approvalFrom(current[0], POSTGRES_COLUMNS) : undefined;
    },
  };
}
