/**
 * The PostgreSQL store (`DATABASE_URL=postgres://…`) for deployments with
 * more than one instance: the same interfaces and contract as the SQLite
 * store, versioned migrations applied once under an advisory lock.
 *
 * @module
 */
import { connectPostgres, migratePostgres, type Sql } from "./postgres_connection.ts";
import { createPostgresChangeStore } from "./postgres_changes.ts";
import { createPostgresApprovalStore } from "./postgres_approvals.ts";
import { createPostgresAuditStore } from "./postgres_audit.ts";
import { createPostgresRollups } from "./postgres_rollup.ts";
import { createPostgresOutbox } from "./postgres_outbox.ts";
import type { Store } from "./types.ts";

/** Options of the PostgreSQL store. */
export interface PostgresStoreOptions {
  /** Clock for row timestamps. */
  now?: () => Date;
}

/** A PostgreSQL store and its connection pool (shared with cluster coordination). */
export interface PostgresStore extends Store {
  readonly sql: Sql;
}

/**
 * Connects, migrates and returns the store. Rejects when the database is
 * unreachable or a migration fails.
 *
 * @example
 * ```ts ignore
 * // ignore: needs a PostgreSQL server
 * const store = await openPostgresStore("postgres://postgres@127.0.0.1:5432/policyd");
 * await store.audit.list({}, 10);
 * await store.close();
 * ```
 */
export async function openPostgresStore(
  url: string,
  options: PostgresStoreOptions = {},
): Promise<PostgresStore> {
  const now = options.now ?? (() => new Date());
  const sql = connectPostgres(url);
  try {
    await migratePostgres(sql);
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw error;
  }
  let closed = false;
  let rollups;
  try {
    rollups = await createPostgresRollups(sql);
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw error;
  }
  const audit = createPostgresAuditStore(sql, rollups, now, () => closed);
  return {
    sql,
    audit,
    approvals: createPostgresApprovalStore(sql, now),
    outbox: createPostgresOutbox(sql, audit, now),
    changes: createPostgresChangeStore(sql, now),
    async healthy() {
      if (closed) return false;
      try {
        await sql.unsafe("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      await audit.queue.drain();
      closed = true;
      await sql.end({ timeout: 5 });
    },
  };
}
