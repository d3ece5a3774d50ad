/**
 * Reading a server's SQLite file directly, as an auditor would.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";

/** Runs a read-only query against a SQLite file and returns its rows. */
export function queryDb(
  path: string,
  sql: string,
  ...params: Array<string | number>
): Record<string, unknown>[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(sql).all(...params) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** Counts the rows of the audit log. */
export function auditCount(path: string): number {
  return Number(queryDb(path, "SELECT COUNT(*) AS n FROM audit_log")[0].n);
}
