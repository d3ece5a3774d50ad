/**
 * The `GROUP BY` statement over the audit log behind `AuditStore.group()`,
 * written once for both dialects; optionally grouped per rollup bucket as
 * well (when the rollups materialise a cube).
 *
 * @module
 */
import { type Grain, grainSeconds } from "./rollup_plan.ts";
import { auditWhere, groupColumns, type SqlDialect, type WhereClause } from "./sql_filter.ts";
import type { BucketedGroup } from "./rollup_group.ts";
import type { AuditFilter, AuditGroupKey } from "./types.ts";

/**
 * The statement and its parameters. Columns: `k0…` (the keys of `by`),
 * `kb` (the bucket start, with `grain`), `count`, `max_cvss`, `last_ts`,
 * `projects` (distinct) and `cve_lists`.
 *
 * @example
 * ```ts
 * import { auditGroupSql } from "./group_sql.ts";
 * import { SQLITE_DIALECT } from "./sql_filter.ts";
 * auditGroupSql(SQLITE_DIALECT, { project: "web" }, ["package"]).params; // ["web"]
 * ```
 */
export function auditGroupSql(
  dialect: SqlDialect,
  filter: AuditFilter,
  by: readonly AuditGroupKey[],
  grain?: Grain,
): WhereClause {
  const expressions = groupColumns(dialect);
  const columns = by.map((key, i) => `${expressions[key]} AS k${i}`);
  const names = by.map((_, i) => `k${i}`);
  if (grain) {
    columns.push(`${dialect.bucket(grainSeconds(grain))} AS kb`);
    names.push("kb");
  }
  const where = auditWhere(filter, dialect);
  const select = columns.length ? `${columns.join(", ")}, ` : "";
  const groupBy = columns.length ? `GROUP BY ${names.join(", ")}` : "";
  const from = by.includes("cve") ? dialect.auditPerCve : "audit_log";
  return {
    sql: `SELECT ${select}COUNT(*) AS count, MAX(max_cvss) AS max_cvss, MAX(ts) AS last_ts,
        ${dialect.distinctTexts("project")} AS projects, ${dialect.cveLists} AS cve_lists
      FROM ${from} ${where.sql} ${groupBy}
      ORDER BY count DESC, last_ts DESC`,
    params: where.params,
  };
}

/** How a driver returns the aggregates of {@link auditGroupSql}. */
export interface GroupColumnReader {
  /** `last_ts` as ISO-8601 text. */
  time(value: unknown): string;
  /** The distinct projects. */
  projects(value: unknown): string[];
  /** The union of the CVE lists, sorted. */
  cveIds(value: unknown): string[];
}

/** The groups of an {@link auditGroupSql} result (groups of zero rows dropped). */
export function groupsFrom(
  rows: ReadonlyArray<Record<string, unknown>>,
  by: readonly AuditGroupKey[],
  grain: Grain | undefined,
  read: GroupColumnReader,
): BucketedGroup[] {
  return rows
    .filter((row) => Number(row.count) > 0)
    .map((row): BucketedGroup => ({
      keys: Object.fromEntries(by.map((key, i) => [key, row[`k${i}`] as string | null])),
      count: Number(row.count),
      max_cvss: row.max_cvss === null ? null : Number(row.max_cvss),
      last_ts: read.time(row.last_ts),
      projects: read.projects(row.projects).sort(),
      cve_ids: read.cveIds(row.cve_lists),
      ...(grain ? { bucket: String(row.kb) } : {}),
    }));
}
