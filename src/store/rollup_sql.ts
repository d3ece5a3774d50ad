/**
 * The rollup read, written once for both dialects: the stored groups of
 * one cube over several bucket ranges (of different grains), added up per
 * cube key (and per UTC day when asked) in one statement.
 *
 * @module
 */
import type { Cube } from "./rollup_cubes.ts";
import type { BucketedGroup, BucketRange, StoredGroup } from "./rollup_group.ts";
import type { Grain } from "./rollup_plan.ts";
import type { SqlDialect } from "./sql_filter.ts";

/** Columns of `audit_rollup`, in the order of {@link rollupRowValues}. */
export const ROLLUP_COLUMNS = [
  "cube",
  "grain",
  "bucket",
  "key",
  "count",
  "max_cvss",
  "last_ts",
  "projects",
  "cve_ids",
] as const;

/** The `audit_rollup` values of one bucket group of `cube` (key and lists as JSON text). */
export function rollupRowValues(
  cube: Cube,
  grain: Grain,
  group: BucketedGroup,
): Array<string | number | null> {
  return [
    cube.name,
    grain,
    group.bucket!,
    JSON.stringify(cube.by.map((key) => group.keys[key] ?? null)),
    group.count,
    group.max_cvss,
    group.last_ts,
    JSON.stringify(group.projects),
    JSON.stringify(group.cve_ids),
  ];
}

/**
 * `SELECT … GROUP BY key[, day]` over `ranges` bucket ranges; parameters:
 * the cube, then `grain, first bucket, last bucket` per range. Every row
 * also carries `marks`, how many of those buckets are stored, read in the
 * same statement (one snapshot), and there is always at least one row
 * (with a null `key` when no group is stored): a reader compares `marks`
 * with the buckets it asked for and materialises before trusting the rows.
 *
 * @example
 * ```ts
 * import { rollupReadSql } from "./rollup_sql.ts";
 * import { SQLITE_DIALECT } from "./sql_filter.ts";
 * rollupReadSql(SQLITE_DIALECT, 2, false).includes("GROUP BY key, day"); // true
 * ```
 */
export function rollupReadSql(dialect: SqlDialect, ranges: number, perDay: boolean): string {
  const p = dialect.numbered;
  const within = Array.from(
    { length: ranges },
    (_, i) =>
      `(cube = ${p(1)} AND grain = ${p(3 * i + 2)} AND bucket >= ${p(3 * i + 3)} AND bucket <= ${
        p(3 * i + 4)
      })`,
  ).join(" OR ");
  const day = perDay ? "substr(bucket, 1, 10)" : "NULL";
  const projects = dialect.distinctTexts("projects");
  const cves = dialect.distinctTexts("cve_ids");
  return `SELECT m.marks, g.* FROM
      (SELECT COUNT(*) AS marks FROM audit_rollup_buckets WHERE ${within}) m
    LEFT JOIN
      (SELECT key, ${day} AS day, SUM(count) AS count, MAX(max_cvss) AS max_cvss,
         MAX(last_ts) AS last_ts, ${projects} AS projects, ${cves} AS cve_ids
       FROM audit_rollup WHERE ${within}
       GROUP BY key, day) g
    ON 1 = 1`;
}

/** The stored groups of a {@link rollupReadSql} result, or null when some bucket is not stored. */
export function storedGroupsFrom(
  rows: ReadonlyArray<Record<string, unknown>>,
  ranges: readonly BucketRange[],
  texts: (value: unknown) => string[],
): StoredGroup[] | null {
  const wanted = ranges.reduce((sum, range) => sum + range.buckets.length, 0);
  if (Number(rows[0]?.marks ?? 0) < wanted) return null;
  return rows.filter((row) => row.key !== null).map((row) => storedGroupFrom(row, texts));
}

/** The parameters of {@link rollupReadSql} for `cube` and `ranges`. */
export function rollupReadParams(cube: Cube, ranges: readonly BucketRange[]): string[] {
  return [
    cube.name,
    ...ranges.flatMap(({ grain, buckets }) => [grain, buckets[0], buckets.at(-1)!]),
  ];
}

/** A row of {@link rollupReadSql}; `texts` reads the driver's distinct-texts aggregate. */
function storedGroupFrom(
  row: Record<string, unknown>,
  texts: (value: unknown) => string[],
): StoredGroup {
  return {
    key: String(row.key),
    day: row.day === null ? null : String(row.day),
    count: Number(row.count),
    max_cvss: row.max_cvss === null ? null : Number(row.max_cvss),
    last_ts: String(row.last_ts),
    projects: texts(row.projects),
    cve_ids: texts(row.cve_ids),
  };
}

/**
 * Deletes the stored groups and marks of every cube in one bucket
 * (parameters: grain, bucket); the groups through the marks, so that the
 * primary key finds them.
 */
export function rollupDropSql(dialect: SqlDialect): string[] {
  const p = dialect.numbered;
  return [
    `DELETE FROM audit_rollup WHERE (cube, grain, bucket) IN
       (SELECT cube, grain, bucket FROM audit_rollup_buckets WHERE grain = ${p(1)} AND bucket = ${
      p(2)
    })`,
    `DELETE FROM audit_rollup_buckets WHERE grain = ${p(1)} AND bucket = ${p(2)}`,
  ];
}
