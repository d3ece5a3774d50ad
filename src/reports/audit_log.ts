/**
 * The audit-log listing behind `GET /api/v1/audit` and `/dashboard/audit`:
 * one query schema (filters, window, page size, cursor), keyset pagination
 * newest first, and the CSV form of the rows.
 *
 * @module
 */
import { stringify } from "csv-stringify/sync";
import { type AuditQuery, AuditQuerySchema, encodeCursor, LATEST_INSTANT } from "../api/audit.ts";
import { normalizeName } from "../core/names.ts";
import type { AuditFilter, AuditReader, AuditRow } from "../store/types.ts";
import { type QueryIssue, queryIssues } from "./params.ts";

export {
  AUDIT_CATEGORIES,
  AUDIT_VERDICTS,
  type AuditQuery,
  decodeCursor,
  encodeCursor,
} from "../api/audit.ts";

/** Most rows one export holds. */
export const MAX_AUDIT_EXPORT = 10_000;

/** Result of {@link parseAuditQuery}. */
export type ParsedAuditQuery = { ok: true; query: AuditQuery } | {
  ok: false;
  errors: QueryIssue[];
};

/**
 * Parses the audit query. `headerProject` (the `X-Policy-Project` header) is
 * the project when the query names none; `*` means every project.
 *
 * @example
 * ```ts
 * import { parseAuditQuery } from "./audit_log.ts";
 * const parsed = parseAuditQuery({ verdict: "DENIED", limit: "10" }, null);
 * parsed.ok && parsed.query.limit; // 10
 * ```
 */
export function parseAuditQuery(
  raw: Record<string, string>,
  headerProject: string | null = null,
): ParsedAuditQuery {
  // An empty field of the dashboard's GET form means "no filter".
  const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v.trim() !== ""));
  const parsed = AuditQuerySchema.safeParse(given);
  if (!parsed.success) {
    return { ok: false, errors: queryIssues(parsed.error) };
  }
  const query = parsed.data;
  const project = query.project ?? (headerProject?.trim() || undefined);
  return { ok: true, query: { ...query, project: project === "*" ? undefined : project } };
}

/** The store filter of a query at `now` (`days` counts back from `now`; `since` wins). */
export function auditFilterOf(query: AuditQuery, now: Date): AuditFilter {
  const filter: AuditFilter = {};
  const since = query.since ??
    (query.days ? new Date(now.getTime() - query.days * 86_400_000).toISOString() : undefined);
  if (since) filter.since = new Date(since).toISOString();
  if (query.until) {
    // A bare date is inclusive: rows up to the end of that day.
    // Clamped to the last instant both stores can compare (`until=9999-12-31`).
    const end = Math.min(
      new Date(query.until).getTime() + (query.until.length === 10 ? 86_400_000 : 0),
      Date.parse(LATEST_INSTANT),
    );
    filter.until = new Date(end).toISOString();
  }
  if (query.project) filter.project = query.project;
  // Names compare PEP 503-normalised, as everywhere else: `PyCrypto` finds `pycrypto`.
  if (query.package) filter.package = normalizeName(query.package);
  if (query.verdict) filter.verdicts = [query.verdict];
  if (query.category) filter.categories = [query.category];
  // An agent model matches by prefix: `claude` finds `claude-code` and `claude-sonnet-4-5`.
  if (query.agent_model) filter.agentModelPrefix = query.agent_model;
  if (query.source) filter.source = query.source;
  return filter;
}

/** One page of the audit log. */
export interface AuditPage {
  items: AuditRow[];
  /** Rows matching the filters, over all pages. */
  total: number;
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

/** Reads one page of rows matching `query`, newest first. */
export async function auditPage(
  audit: AuditReader,
  query: AuditQuery,
  now: Date,
): Promise<AuditPage> {
  const filter = auditFilterOf(query, now);
  const [rows, total] = await Promise.all([
    audit.list({ ...filter, ...(query.cursor ? { before: query.cursor } : {}) }, query.limit + 1),
    audit.group(filter, []),
  ]);
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  return {
    items,
    total: total[0]?.count ?? 0,
    next_cursor: rows.length > query.limit && last
      ? encodeCursor({ ts: last.ts, id: last.id })
      : null,
  };
}

/** Every row matching `query` (up to {@link MAX_AUDIT_EXPORT}), newest first, for an export. */
export function auditExportRows(
  audit: AuditReader,
  query: AuditQuery,
  now: Date,
): Promise<AuditRow[]> {
  return audit.list(auditFilterOf(query, now), MAX_AUDIT_EXPORT);
}

/** Columns of the CSV export, in order (SPEC §8's audit row). */
export const AUDIT_CSV_COLUMNS = [
  "id",
  "ts",
  "package",
  "version",
  "verdict",
  "denial_category",
  "project",
  "requester",
  "agent_model",
  "agent_version",
  "source",
  "license",
  "license_raw",
  "cve_ids",
  "max_cvss",
  "registry_status",
  "registry_version",
  "reason",
  "vulnerability_data",
  "license_data",
  "threats",
] as const;

/** What a row's decision knew of one lookup: its status, or `not_recorded` (alerts, old rows). */
function dataStatus(row: AuditRow, kind: "vulnerabilities" | "license"): string {
  return row.data?.[kind]?.status ?? "not_recorded";
}

/** The row's threats (issue #30, when recorded) as `kind:id` words. */
function threatsCell(row: AuditRow): string {
  const threats = (row as AuditRow & { threats?: Array<{ kind: string; id?: string }> }).threats;
  return (threats ?? []).map((t) => (t.id ? `${t.kind}:${t.id}` : t.kind)).join(" ");
}

/**
 * Audit rows as RFC 4180 CSV with a header line; `cve_ids` joined by spaces,
 * what the decision knew (`vulnerability_data`, `license_data`: `fetched`,
 * `cached`, `unavailable`, `skipped` or `not_recorded`, so "not checked" and
 * "clean" never look alike) and its threats; cells that a spreadsheet would
 * run as a formula (`=`, `+`, `-`, `@`, tab, carriage return) get a leading `'`.
 */
export function auditCsv(rows: AuditRow[]): string {
  return stringify(
    rows.map((row) =>
      AUDIT_CSV_COLUMNS.map((column) => {
        if (column === "cve_ids") return row.cve_ids.join(" ");
        if (column === "vulnerability_data") return dataStatus(row, "vulnerabilities");
        if (column === "license_data") return dataStatus(row, "license");
        if (column === "threats") return threatsCell(row);
        return row[column] ?? "";
      })
    ),
    { header: true, columns: [...AUDIT_CSV_COLUMNS], escape_formulas: true },
  );
}
