/**
 * Parameters shared by the reports: window, project filter, list limit, and
 * the parsing of a report query with the one schema of the wire contract
 * (`ReportQuerySchema` in `src/api/reports.ts`), for the dashboard pages.
 *
 * @module
 */
import type { z } from "zod";
import { reportProject, ReportQuerySchema } from "../api/reports.ts";
import type { AuditFilter } from "../store/types.ts";

/** Report parameters (SPEC §15.6). */
export interface ReportParams {
  days: number;
  /** null = every project. */
  project: string | null;
  limit: number;
  now: Date;
}

/** A parsed report query. */
export interface ReportQuery {
  days: number;
  limit: number;
  /** null = every project. */
  project: string | null;
  /** The query string that reproduces this query (`?days=…&project=…`), for links. */
  search: string;
}

/** One invalid query parameter. */
export interface QueryIssue {
  path: string;
  message: string;
}

/** The issues of a failed query parse, one per bad parameter. */
export function queryIssues(error: z.ZodError): QueryIssue[] {
  return error.issues.map((i) => ({ path: i.path.join(".") || "(query)", message: i.message }));
}

/** Result of {@link parseReportQuery}. */
export type ParsedReportQuery =
  | { ok: true; query: ReportQuery }
  | { ok: false; errors: QueryIssue[] };

/**
 * Parses a report query. `headerProject` (the `X-Policy-Project` header) is
 * the project when the query names none.
 *
 * @example
 * ```ts
 * import { parseReportQuery } from "./params.ts";
 * parseReportQuery({ days: "7" }, null);
 * // { ok: true, query: { days: 7, limit: 20, project: null, search: "?days=7" } }
 * ```
 */
export function parseReportQuery(
  raw: Record<string, string>,
  headerProject: string | null = null,
): ParsedReportQuery {
  const parsed = ReportQuerySchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, errors: queryIssues(parsed.error) };
  }
  const project = reportProject(parsed.data, headerProject);
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

/** The audit filter of the report window and project. */
export function windowFilter(params: ReportParams): AuditFilter {
  const since = new Date(params.now.getTime() - params.days * 86_400_000).toISOString();
  return params.project ? { since, project: params.project } : { since };
}

/** Verdict counts keyed by evaluation verdict. */
export interface VerdictCounts {
  ALLOWED: number;
  DENIED: number;
  PROVISIONALLY_ALLOWED: number;
}

/** Zeroed verdict counts. */
export function emptyVerdicts(): VerdictCounts {
  return { ALLOWED: 0, DENIED: 0, PROVISIONALLY_ALLOWED: 0 };
}

/** The evaluation verdicts (scanner alerts excluded). */
export const EVALUATION_VERDICTS = ["ALLOWED", "DENIED", "PROVISIONALLY_ALLOWED"] as const;
