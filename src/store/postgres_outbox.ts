/**
 * The alert outbox on PostgreSQL, shared by several instances: a claim takes
 * due rows with `FOR UPDATE SKIP LOCKED` and stamps a lease, so two
 * instances polling at once never take the same row, and a row whose
 * claimer died is due again when its lease ends.
 *
 * @module
 */
import type { Sql, TransactionSql } from "./postgres_connection.ts";
import type { PostgresAuditStore } from "./postgres_audit.ts";
import { insertPostgresApproval } from "./postgres_approvals.ts";
import { POSTGRES_COLUMNS } from "./row_mapping.ts";
import {
  MAX_OUTBOX_ERROR,
  OUTBOX_INSERT_COLUMNS,
  outboxRowFrom,
  outboxValues,
} from "./outbox_rows.ts";
import type { OutboxAction, OutboxEntry, OutboxStore } from "./types.ts";
import { insertSql } from "./insert_sql.ts";

const INSERT = `${
  insertSql("alert_outbox", OUTBOX_INSERT_COLUMNS, (column, n) =>
    column === "data" ? `($${n}::text)::jsonb` : `$${n}`)
} ON CONFLICT (event_key, destination) DO NOTHING RETURNING id`;

/** Creates the outbox on a migrated database. */
export function createPostgresOutbox(
  sql: Sql,
  audit: Pick<PostgresAuditStore, "insertWith">,
  now: () => Date,
): OutboxStore {
  const write = async (tx: Sql | TransactionSql, entries: OutboxEntry[]): Promise<number> => {
    const at = now().toISOString();
    let n = 0;
    for (const entry of entries) n += (await tx.unsafe(INSERT, outboxValues(entry, at))).length;
    return n;
  };
  const action = async (updated: readonly unknown[], id: number): Promise<OutboxAction> => {
    if (updated.length > 0) return "done";
    const found = await sql.unsafe(`SELECT 1 FROM alert_outbox WHERE id = $1`, [id]);
    return found.length > 0 ? "delivered" : "not-found";
  };
  const rows = async (query: string, params: unknown[]) =>
    (await sql.unsafe(query, params as never[])).map((r) => outboxRowFrom(r, POSTGRES_COLUMNS));

  return {
    enqueue: (entries) => sql.begin((tx) => write(tx, entries)),
    async insertAuditWith(row, build) {
      const [stored] = await audit.insertWith([row], async (tx, rows) => {
        await write(tx, build(rows[0]));
      });
      return stored;
    },
    createApprovalWith: (request, build) =>
      sql.begin(async (tx) => {
        // Serialises requests of one package, so exactly one of two concurrent first requests counts 0.
        await tx.unsafe(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
          `approval:${request.package}`,
        ]);
        const [pending] = await tx.unsafe(
          `SELECT COUNT(*) AS n FROM approval_requests
           WHERE package = $1 AND status = 'PENDING_REVIEW'`,
          [request.package],
        );
        const stored = await insertPostgresApproval(tx, request, now().toISOString());
        await write(tx, build(stored, Number(pending.n)));
        return stored;
      }),
    async claim(instance, leaseMs, limit) {
      const at = now();
      const claimed = await rows(
        `UPDATE alert_outbox SET claimed_by = $1, claimed_until = $2
         WHERE id IN (
           SELECT id FROM alert_outbox
           WHERE state = 'pending' AND next_attempt_at <= $3
             AND (claimed_until IS NULL OR claimed_until < $3)
           ORDER BY next_attempt_at, id LIMIT $4
           FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [instance, new Date(at.getTime() + leaseMs).toISOString(), at.toISOString(), limit],
      );
      return claimed.sort((a, b) => a.id - b.id);
    },
    async delivered(id, instance) {
      await sql.unsafe(
        `UPDATE alert_outbox SET state = 'delivered', delivered_at = $1, attempts = attempts + 1,
           claimed_by = NULL, claimed_until = NULL, last_error = NULL
         WHERE id = $2 AND claimed_by = $3 AND state = 'pending'`,
        [now().toISOString(), id, instance],
      );
    },
    async failed(id, instance, error, retryAt) {
      await sql.unsafe(
        `UPDATE alert_outbox SET attempts = attempts + 1, last_error = $1,
           state = CASE WHEN $2::timestamptz IS NULL THEN 'dead' ELSE 'pending' END,
           next_attempt_at = COALESCE($2::timestamptz, next_attempt_at),
           claimed_by = NULL, claimed_until = NULL
         WHERE id = $3 AND claimed_by = $4 AND state = 'pending'`,
        [error.slice(0, MAX_OUTBOX_ERROR), retryAt, id, instance],
      );
    },
    list(filter, limit) {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (column: string, value: string | undefined) => {
        if (value === undefined) return;
        params.push(value);
        where.push(`${column} = $${params.length}`);
      };
      add("state", filter.state);
      add("kind", filter.kind);
      add("destination", filter.destination);
      params.push(limit);
      return rows(
        `SELECT * FROM alert_outbox ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
         ORDER BY id DESC LIMIT $${params.length}`,
        params,
      );
    },
    async retry(id) {
      const done = await sql.unsafe(
        `UPDATE alert_outbox SET state = 'pending', attempts = 0, next_attempt_at = $1,
           claimed_by = NULL, claimed_until = NULL
         WHERE id = $2 AND state <> 'delivered' RETURNING id`,
        [now().toISOString(), id],
      );
      return await action(done, id);
    },
    async mute(id) {
      const done = await sql.unsafe(
        `UPDATE alert_outbox SET state = 'muted', claimed_by = NULL, claimed_until = NULL
         WHERE id = $1 AND state <> 'delivered' RETURNING id`,
        [id],
      );
      return await action(done, id);
    },
    async backlog() {
      const [row] = await sql.unsafe(
        `SELECT COUNT(*) FILTER (WHERE state = 'pending') AS pending,
           COUNT(*) FILTER (WHERE state = 'dead') AS dead,
           MIN(created_at) FILTER (WHERE state = 'pending') AS oldest
         FROM alert_outbox WHERE state IN ('pending', 'dead')`,
      );
      return {
        pending: Number(row.pending ?? 0),
        dead: Number(row.dead ?? 0),
        oldest_pending_at: row.oldest ? POSTGRES_COLUMNS.time(row.oldest) : null,
      };
    },
  };
}
