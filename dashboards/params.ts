/**
 * Query parameters of the report pages. They mirror `/api/v1/reports/*`
 * (`days`, `project`, `limit`) so a page and its "View JSON" link show the
 * same data.
 *
 * @module
 */
import type { ReportParams } from "../src/reports/params.ts";
import { reportProject, ReportQuerySchema } from "../src/api/reports.ts";

/** Parsed report-page query. */
export interface ReportQuery {
  days: number;
  limit: number;
  /** null = every project. */
  project: string | null;
  /** The query string to pass through to the API (`?days=…&project=…`). */
  search: string;
}

/** Result of {@link parseReportQuery}: the query or a message for the page. */
export type ParsedReportQuery = { ok: true; query: ReportQuery } | { ok: false; message: string };

/**
 * Parses `days`, `project` and `limit` of a report page.
 *
 * @example
 * ```ts
 * parseReportQuery({ days: "7" }); // { ok: true, query: { days: 7, limit: 20, project: null, search: "?days=7" } }
 * ```
 */
export function parseReportQuery(raw: Record<string, string>): ParsedReportQuery {
  const parsed = ReportQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      message: `Invalid ${issue?.path.join(".") || "query"}: ${issue?.message ?? "invalid"}`,
    };
  }
  const project = reportProject(parsed.data);
  const search = new URLSearchParams();
  search.set("days", String(parsed.data.days));
  if (project) search.set("project", project);
  if (raw.limit !== undefined) search.set("limit", String(parsed.data.limit));
  return {
    ok: true,
    query: { days: parsed.data.days, limit: parsed.data.limit, project, search: `?${search}` },
  };
}

/** The report functions' parameters for a parsed query. */
export function toReportParams(query: ReportQuery, now: Date): ReportParams {
  return { days: query.days, limit: query.limit, project: query.project, now };
}
