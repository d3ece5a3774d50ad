/**
 * The one transaction helper of the SQLite store. `BEGIN IMMEDIATE`,
 * `COMMIT` and `ROLLBACK` are prepared once per database (a measurable share
 * of a group commit's cost, docs/performance.md).
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

/** Runs `work` (synchronous, as `node:sqlite` is) in one write transaction. */
export type Transaction = <T>(work: () => T) => T;

/**
 * Creates the transaction runner of `db`: `BEGIN IMMEDIATE … COMMIT`,
 * rolling back and rethrowing when `work` throws.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { createTransaction } from "./sqlite_transaction.ts";
 * const db = new DatabaseSync(":memory:");
 * const inTransaction = createTransaction(db);
 * inTransaction(() => db.exec("CREATE TABLE t (x INTEGER)"));
 * ```
 */
export function createTransaction(db: DatabaseSync): Transaction {
  const begin = db.prepare("BEGIN IMMEDIATE");
  const commit = db.prepare("COMMIT");
  const rollback = db.prepare("ROLLBACK");
  return <T>(work: () => T): T => {
    begin.run();
    try {
      const result = work();
      commit.run();
      return result;
    } catch (error) {
      rollback.run();
      throw error;
    }
  };
}
