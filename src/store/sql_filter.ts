/**
 * SQL shared by the store backends: the audit filter's WHERE clause, the
 * grouping expressions and the audit columns, written once with the
 * placeholder style of each dialect (`?` in SQLite, `$n` in PostgreSQL).
 *
 * @module
 */
import { APPROVAL_INSERT_COLUMNS, approvalValues } from "./row_mapping.ts";
import type {
  ApprovalFilter,
  AuditFilter,
  AuditGroupKey,
  AuditRow,
  NewApprovalRequest,
  NewAuditRow,
} from "./types.ts";
import { insertSql } from "./insert_sql.ts";

/** A SQL dialect's differences that the shared builders need. */
export interface SqlDialect {
  /** The placeholder of the `n`-th parameter (1-based). */
  placeholder(n: number): string;
  /** A placeholder that names the `n`-th parameter, so that it may appear more than once. */
  numbered(n: number): string;
  /** A condition that is never true. */
  never: string;
  /** The condition "the decision's data of kind `kindParam` was unavailable" (`data` JSON). */
  dataUnavailable(kindParam: string): string;
  /** The UTC day of `ts` as `YYYY-MM-DD`. */
  day: string;
  /** The audit log joined with one row per CVE id of each row (`cve.value`). */
  auditPerCve: string;
  /** An aggregate: the `cve_ids` lists of the group's rows. */
  cveLists: string;
  /** An aggregate: the distinct texts of `column` (SQLite: a JSON array; PostgreSQL: text[]). */
  distinctTexts(column: string): string;
  /** The start of the `seconds`-long bucket holding `ts` (epoch-aligned), as ISO-8601 text. */
  bucket(seconds: number): string;
}

/** SQLite: `?` placeholders. */
export const SQLITE_DIALECT: SqlDialect = {
  placeholder: () => "?",
  numbered: (n) => `?${n}`,
  never: "0",
  dataUnavailable: (kind) => `json_extract(data, '$.' || ${kind} || '.status') = 'unavailable'`,
  day: "substr(ts, 1, 10)",
  auditPerCve: "audit_log, json_each(audit_log.cve_ids) AS cve",
  cveLists: "group_concat(cve_ids, char(31))",
  distinctTexts: (column) => `json_group_array(DISTINCT ${column})`,
  bucket: (seconds) =>
    `strftime('%Y-%m-%dT%H:00:00.000Z', unixepoch(ts) / ${seconds} * ${seconds}, 'unixepoch')`,
};

/** PostgreSQL: `$n` placeholders. */
export const POSTGRES_DIALECT: SqlDialect = {
  placeholder: (n) => `$${n}`,
  numbered: (n) => `$${n}`,
  never: "FALSE",
  dataUnavailable: (kind) => `data -> (${kind}::text) ->> 'status' = 'unavailable'`,
  day: "to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
  auditPerCve:
    "audit_log CROSS JOIN LATERAL jsonb_array_elements_text(audit_log.cve_ids) AS cve(value)",
  cveLists: "jsonb_agg(cve_ids)",
  distinctTexts: (column) => `array_agg(DISTINCT ${column})`,
  bucket: (seconds) =>
    `to_char(to_timestamp(floor(extract(epoch FROM ts) / ${seconds}) * ${seconds})
      AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24":00:00.000Z"')`,
};

/** Audit columns written on insert (every column but `id`), in order. */
export const AUDIT_INSERT_COLUMNS = [
  "ts",
  "package",
  "version",
  "license",
  "verdict",
  "project",
  "requester",
  "agent_model",
  "agent_version",
  "source",
  "denial_category",
  "cve_ids",
  "max_cvss",
  "registry_status",
  "registry_version",
  "license_raw",
  "reason",
  "data",
  "exceptions_applied",
  "threats",
] as const;

/** Columns holding JSON documents (`TEXT` in SQLite, `jsonb` in PostgreSQL). */
export const AUDIT_JSON_COLUMNS: ReadonlySet<string> = new Set([
  "cve_ids",
  "data",
  "exceptions_applied",
  "threats",
]);

/**
 * The values of {@link AUDIT_INSERT_COLUMNS} for one row, JSON columns as
 * their documents (not yet serialised).
 */
export function auditValues(row: NewAuditRow, ts: string): unknown[] {
  return [
    ts,
    row.package,
    row.version,
    row.license,
    row.verdict,
    row.project,
    row.requester,
    row.agent_model,
    row.agent_version,
    row.source,
    row.denial_category,
    row.cve_ids,
    row.max_cvss,
    row.registry_status,
    row.registry_version,
    row.license_raw,
    row.reason,
    row.data ?? null,
    row.exceptions_applied ?? [],
    row.threats ?? [],
  ];
}

/** Positions of the JSON columns in {@link AUDIT_INSERT_COLUMNS}. */
const JSON_POSITIONS = AUDIT_INSERT_COLUMNS.flatMap((column, i) =>
  AUDIT_JSON_COLUMNS.has(column) ? [i] : []
);

/** The values of {@link AUDIT_INSERT_COLUMNS} for one row; JSON columns as JSON strings. */
export function auditInsertValues(
  row: NewAuditRow,
  ts: string,
): Array<string | number | null> {
  const values = auditValues(row, ts);
  for (const i of JSON_POSITIONS) {
    if (values[i] !== null) values[i] = JSON.stringify(values[i]);
  }
  return values as Array<string | number | null>;
}

/** The stored form of a new row: the optional columns filled with their defaults. */
export function storedAuditRow(row: NewAuditRow, id: number, ts: string): AuditRow {
  return {
    ...row,
    data: row.data ?? null,
    exceptions_applied: row.exceptions_applied ?? [],
    threats: row.threats ?? [],
    id,
    ts,
  };
}

/** The SQL expression of each grouping key; `cve` needs the `cve` table function joined. */
export function groupColumns(dialect: SqlDialect): Record<AuditGroupKey, string> {
  return {
    package: "package",
    project: "project",
    license: "license",
    verdict: "verdict",
    agent_model: "agent_model",
    agent_version: "agent_version",
    source: "source",
    severity: `CASE WHEN max_cvss >= 9.0 THEN 'critical' WHEN max_cvss >= 7.0 THEN 'high'
      WHEN max_cvss >= 4.0 THEN 'medium' WHEN max_cvss >= 0.1 THEN 'low' ELSE 'unknown' END`,
    cve: "cve.value",
    day: dialect.day,
    category: "denial_category",
  };
}

/** A WHERE clause and its parameters. */
export interface WhereClause {
  sql: string;
  params: Array<string | number>;
}

/**
 * Builds the WHERE clause of an audit filter; parameters are numbered from
 * `firstParam` (1 unless other parameters come before them).
 */
export function auditWhere(filter: AuditFilter, dialect: SqlDialect, firstParam = 1): WhereClause {
  const parts: string[] = [];
  const params: Array<string | number> = [];
  const param = (value: string | number) => {
    params.push(value);
    return dialect.placeholder(firstParam + params.length - 1);
  };
  const inList = (column: string, values: readonly string[]) => {
    parts.push(
      values.length === 0 ? dialect.never : `${column} IN (${values.map(param).join(", ")})`,
    );
  };
  if (filter.since) parts.push(`ts >= ${param(filter.since)}`);
  if (filter.project) parts.push(`project = ${param(filter.project)}`);
  if (filter.package) parts.push(`package = ${param(filter.package)}`);
  if (filter.license !== undefined) parts.push(`license = ${param(filter.license)}`);
  if (filter.hasLicense) parts.push("license IS NOT NULL");
  if (filter.dataUnavailable) parts.push(dialect.dataUnavailable(param(filter.dataUnavailable)));
  if (filter.verdicts) inList("verdict", filter.verdicts);
  if (filter.categories) inList("denial_category", filter.categories);
  if (filter.packages) inList("package", filter.packages);
  if (filter.until) parts.push(`ts < ${param(filter.until)}`);
  if (filter.agent_model) parts.push(`agent_model = ${param(filter.agent_model)}`);
  if (filter.agentModelPrefix) {
    const pattern = filter.agentModelPrefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
    parts.push(`lower(agent_model) LIKE ${param(`${pattern}%`)} ESCAPE '\\'`);
  }
  if (filter.source) parts.push(`source = ${param(filter.source)}`);
  if (filter.registryKnown) parts.push("registry_status IS NOT NULL");
  if (filter.before) {
    const { ts, id } = filter.before;
    parts.push(`(ts < ${param(ts)} OR (ts = ${param(ts)} AND id < ${param(id)}))`);
  }
  return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
}

/** Sorted union of CVE id lists. */
export function unionOfCveLists(lists: Iterable<readonly string[]>): string[] {
  const ids = new Set<string>();
  for (const list of lists) for (const id of list) ids.add(id);
  return [...ids].sort();
}

/** Builds the WHERE clause of an approval request listing. */
export function approvalWhere(filter: ApprovalFilter, dialect: SqlDialect): WhereClause {
  const parts: string[] = [];
  const params: Array<string | number> = [];
  for (const column of ["project", "status", "package"] as const) {
    const value = filter[column];
    if (!value) continue;
    params.push(value);
    parts.push(`${column} = ${dialect.placeholder(params.length)}`);
  }
  return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
}

/**
 * The INSERT of one approval request pending review and its values (both
 * backends; PostgreSQL adds `RETURNING *`).
 */
export function approvalInsert(
  request: NewApprovalRequest,
  createdAt: string,
  dialect: SqlDialect,
): { sql: string; params: Array<string | null> } {
  return {
    sql: insertSql("approval_requests", APPROVAL_INSERT_COLUMNS, (_, n) => dialect.placeholder(n)),
    params: approvalValues(request, createdAt),
  };
}
