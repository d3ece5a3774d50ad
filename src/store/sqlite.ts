/**
 * The SQLite store (`node:sqlite`, WAL mode): opens and migrates the
 * database and composes the audit log (`sqlite_audit.ts`) and the approval
 * requests (`sqlite_approvals.ts`). Every write commits before its promise
 * resolves.
 *
 * @module
 */
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { MIGRATIONS } from "./migrations.ts";
import { createSqliteApprovalStore } from "./sqlite_approvals.ts";
import { createSqliteChangeStore } from "./sqlite_changes.ts";
import { createSqliteAuditStore } from "./sqlite_audit.ts";
import { createSqliteOutbox } from "./sqlite_outbox.ts";
import { createTransaction, type Transaction } from "./sqlite_transaction.ts";
import type { Store } from "./types.ts";

/** Options of the SQLite store. */
export interface SqliteStoreOptions {
  /** Clock for row timestamps; injectable so documents and tests are reproducible. */
  now?: () => Date;
  /**
   * Most single audit inserts one group commit takes (default 256); more
   * pending rows commit at once instead of waiting for the next turn.
   */
  maxBatchRows?: number;
}

/**
 * WAL pages between automatic checkpoints (SQLite's default is 1000). A
 * checkpoint runs inside the COMMIT that crosses the mark, on the event loop,
 * and copies each changed page once however often it changed since the last
 * one: the audit indexes change the same pages commit after commit, so a
 * longer interval copies far less per row (measured in docs/performance.md:
 * 14–30 % less CPU per inserted row; the WAL file grows to about 16 MB and the
 * slowest commit from ~22 to ~37 ms).
 */
export const WAL_AUTOCHECKPOINT_PAGES = 4000;

function migrate(db: DatabaseSync, inTransaction: Transaction): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Set(
    (db.prepare("SELECT version FROM schema_migrations").all() as Array<
      Record<string, SQLInputValue>
    >).map((r) => Number(r.version)),
  );
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    inTransaction(() => {
      db.exec(migration.sql);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
        .run(migration.version, migration.name, new Date().toISOString());
    });
  }
}

/**
 * Opens (creating and migrating when needed) a SQLite store at `path`.
 *
 * @example
 * ```ts
 * import { openSqliteStore } from "./sqlite.ts";
 * const store = openSqliteStore(":memory:");
 * await store.audit.list({}, 10); // []
 * await store.close();
 * ```
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  const now = options.now ?? (() => new Date());
  const db = new DatabaseSync(path);
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  db.exec("PRAGMA foreign_keys = ON");
  const inTransaction = createTransaction(db);
  migrate(db, inTransaction);
  let closed = false;
  const audit = createSqliteAuditStore({
    db,
    inTransaction,
    now,
    isClosed: () => closed,
    maxBatchRows: options.maxBatchRows,
  });
  return {
    audit,
    approvals: createSqliteApprovalStore(db, inTransaction, now),
    outbox: createSqliteOutbox(db, inTransaction, audit, now),
    changes: createSqliteChangeStore(db, now),
    healthy: () =>
      Promise.resolve().then(() => {
        if (closed) return false;
        try {
          db.prepare("SELECT 1").get();
          return true;
        } catch {
          return false;
        }
      }),
    close: async () => {
      await audit.queue.drain();
      if (!closed) {
        closed = true;
        db.close();
      }
    },
  };
}
