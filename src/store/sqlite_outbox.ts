/**
 * The alert outbox on SQLite. One process writes a SQLite database, so a
 * claim is an `UPDATE … RETURNING` inside `BEGIN IMMEDIATE`; the lease still
 * matters after a crash (a row claimed by a dead process is due again when
 * its lease ends).
 *
 * @module
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { Transaction } from "./sqlite_transaction.ts";
import type { SqliteAuditStore } from "./sqlite_audit.ts";
import { insertSqliteApproval } from "./sqlite_approvals.ts";
import { SQLITE_COLUMNS } from "./row_mapping.ts";
import {
  MAX_OUTBOX_ERROR,
  OUTBOX_INSERT_COLUMNS,
  outboxRowFrom,
  outboxValues,
} from "./outbox_rows.ts";
import type { OutboxAction, OutboxEntry, OutboxStore } from "./types.ts";
import { insertSql } from "./insert_sql.ts";

type Row = Record<string, SQLInputValue>;

const INSERT = `${insertSql("alert_outbox", OUTBOX_INSERT_COLUMNS)}
  ON CONFLICT (event_key, destination) DO NOTHING`;

/** Creates the outbox on an open, migrated database. */
export function createSqliteOutbox(
  db: DatabaseSync,
  inTransaction: Transaction,
  audit: Pick<SqliteAuditStore, "insertInTransaction">,
  now: () => Date,
): OutboxStore {
  const insert = db.prepare(INSERT);
  const write = (entries: OutboxEntry[]): number => {
    const at = now().toISOString();
    return entries.reduce((n, e) => n + Number(insert.run(...outboxValues(e, at)).changes), 0);
  };
  const rows = (sql: string, ...params: SQLInputValue[]) =>
    (db.prepare(sql).all(...params) as Row[]).map((r) => outboxRowFrom(r, SQLITE_COLUMNS));
  const changed = (sql: string, ...params: SQLInputValue[]) =>
    Number(db.prepare(sql).run(...params).changes) > 0;
  const later = <T>(work: () => T) => Promise.resolve().then(work);
  const action = (updated: boolean, id: number): OutboxAction =>
    updated
      ? "done"
      : db.prepare("SELECT 1 FROM alert_outbox WHERE id = ?").get(id)
      ? "delivered"
      : "not-found";

  return {
    enqueue: (entries) => later(() => inTransaction(() => write(entries))),
    insertAuditWith: (row, build) =>
      later(() =>
        inTransaction(() => {
          const stored = audit.insertInTransaction(row);
          write(build(stored));
          return stored;
        })
      ),
    createApprovalWith: (request, build) =>
      later(() =>
        inTransaction(() => {
          const pending = db.prepare(
            `SELECT COUNT(*) AS n FROM approval_requests
             WHERE package = ? AND status = 'PENDING_REVIEW'`,
          ).get(request.package) as Row;
          const stored = insertSqliteApproval(db, request, now().toISOString());
          write(build(stored, Number(pending.n)));
          return stored;
        })
      ),
    claim: (instance, leaseMs, limit) =>
      later(() => {
        const at = now();
        const until = new Date(at.getTime() + leaseMs).toISOString();
        return inTransaction(() =>
          rows(
            `UPDATE alert_outbox SET claimed_by = ?, claimed_until = ?
             WHERE id IN (
               SELECT id FROM alert_outbox
               WHERE state = 'pending' AND next_attempt_at <= ?
                 AND (claimed_until IS NULL OR claimed_until < ?)
               ORDER BY next_attempt_at, id LIMIT ?)
             RETURNING *`,
            instance,
            until,
            at.toISOString(),
            at.toISOString(),
            limit,
          ).sort((a, b) => a.id - b.id)
        );
      }),
    delivered: (id, instance) =>
      later(() => {
        changed(
          `UPDATE alert_outbox SET state = 'delivered', delivered_at = ?, attempts = attempts + 1,
             claimed_by = NULL, claimed_until = NULL, last_error = NULL
           WHERE id = ? AND claimed_by = ? AND state = 'pending'`,
          now().toISOString(),
          id,
          instance,
        );
      }),
    failed: (id, instance, error, retryAt) =>
      later(() => {
        changed(
          `UPDATE alert_outbox SET attempts = attempts + 1, last_error = ?,
             state = CASE WHEN ? IS NULL THEN 'dead' ELSE 'pending' END,
             next_attempt_at = COALESCE(?, next_attempt_at),
             claimed_by = NULL, claimed_until = NULL
           WHERE id = ? AND claimed_by = ? AND state = 'pending'`,
          error.slice(0, MAX_OUTBOX_ERROR),
          retryAt,
          retryAt,
          id,
          instance,
        );
      }),
    list: (filter, limit) =>
      later(() => {
        const where: string[] = [];
        const params: SQLInputValue[] = [];
        if (filter.state) where.push("state = ?"), params.push(filter.state);
        if (filter.kind) where.push("kind = ?"), params.push(filter.kind);
        if (filter.destination) where.push("destination = ?"), params.push(filter.destination);
        return rows(
          `SELECT * FROM alert_outbox ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
           ORDER BY id DESC LIMIT ?`,
          ...params,
          limit,
        );
      }),
    retry: (id) =>
      later(() =>
        action(
          changed(
            `UPDATE alert_outbox SET state = 'pending', attempts = 0, next_attempt_at = ?,
             claimed_by = NULL, claimed_until = NULL
           WHERE id = ? AND state <> 'delivered'`,
            now().toISOString(),
            id,
          ),
          id,
        )
      ),
    mute: (id) =>
      later(() =>
        action(
          changed(
            `UPDATE alert_outbox SET state = 'muted', claimed_by = NULL, claimed_until = NULL
             WHERE id = ? AND state <> 'delivered'`,
            id,
          ),
          id,
        )
      ),
    backlog: () =>
      later(() => {
        const row = db.prepare(
          `SELECT SUM(state = 'pending') AS pending, SUM(state = 'dead') AS dead,
             MIN(CASE WHEN state = 'pending' THEN created_at END) AS oldest
           FROM alert_outbox WHERE state IN ('pending', 'dead')`,
        ).get() as Row;
        return {
          pending: Number(row.pending ?? 0),
          dead: Number(row.dead ?? 0),
          oldest_pending_at: row.oldest === null ? null : String(row.oldest),
        };
      }),
  };
}
