/**
 * The `INSERT` statement of a column list, written once for every table and
 * both dialects.
 *
 * @module
 */

/**
 * `INSERT INTO table (a, b) VALUES (…, …)`, each placeholder from
 * `placeholder(column, position)` (default SQLite's `?`).
 *
 * @example
 * ```ts
 * import { insertSql } from "./insert_sql.ts";
 * insertSql("t", ["a", "b"], (_, n) => `$${n}`); // "INSERT INTO t (a, b) VALUES ($1, $2)"
 * ```
 */
export function insertSql(
  table: string,
  columns: readonly string[],
  placeholder: (column: string, position: number) => string = () => "?",
): string {
  const values = columns.map((column, i) => placeholder(column, i + 1)).join(", ");
  return `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${values})`;
}
