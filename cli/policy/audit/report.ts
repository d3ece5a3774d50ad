/**
 * The audit report, pure: which query each entry sends (deduplicated), the
 * result rows joined back to their file and line, the summary and the exit
 * code (SPEC §15.23; `--fail-on` picks the threshold).
 *
 * @module
 */

import { valid as validVersion } from "@renovatebot/pep440";
import { isValidName } from "../../../src/core/names.ts";
import type { EvaluationResult, PackageQuery } from "../api_client.ts";
import { EXIT } from "../exit_codes.ts";
import type { AuditedEntry, LoadedFile } from "../lockfiles/mod.ts";
import { pinnedVersion } from "../pyproject.ts";
import { rangeQuery } from "../range_query.ts";
import type { FailOn } from "./options.ts";

/** One package of the report. */
export interface AuditRow {
  package: string;
  /** The version the file records for it (an exact pin, or a source's version), else null. */
  version: string | null;
  /** The version sent for evaluation (`version`, else a specifier's lower bound), null when none. */
  evaluated_version: string | null;
  /** Exact version from an index. */
  pinned: boolean;
  /** Version specifier of an unpinned requirement. */
  specifier: string | null;
  /** Non-index origin (git/URL/path), null for index packages. */
  source: string | null;
  direct: boolean;
  file: string;
  line: number;
  /** Null when the package was not evaluated (a local path). */
  verdict: EvaluationResult["verdict"] | null;
  reason: string;
  denial_category: string | null;
  replacement: string | null;
  /** Vulnerability ids, highest score first. */
  cves: string[];
  /** The evaluation's data-status object, as the server sent it; null when absent. */
  data: unknown;
  /** Set when the server was unreachable and fail-open allowed the package unchecked. */
  transport_error?: true;
}

/** Counts of the report. */
export interface AuditSummary {
  allowed: number;
  provisional: number;
  denied: number;
  /** Rows without an exact index pin (ranges, git/URL/path sources). */
  unpinned: number;
  /** Rows allowed unchecked because the server was unreachable (fail-open). */
  transport_errors: number;
}

/** What `policy audit --format json` prints. */
export interface AuditReport {
  files: Array<{ file: string; format: string; manifest: string | null; packages: number }>;
  results: AuditRow[];
  summary: AuditSummary;
}

/** The batch query an entry sends, or null when it is not evaluated. */
export function queryOf(entry: AuditedEntry): PackageQuery | null {
  if (entry.local || !isValidName(entry.name)) return null;
  if (entry.version === null && entry.specifier) {
    const query = rangeQuery(entry.name, entry.specifier);
    if (query.package !== entry.name) return query; // a range, judged by the server
  }
  const version = entry.version ?? (entry.specifier ? pinnedVersion(entry.specifier) : null);
  return { package: entry.name, version: version && validVersion(version) ? version : null };
}

function queryKey(query: PackageQuery): string {
  return `${query.package}\u0000${query.version ?? ""}`;
}

/** The distinct queries of a set of entries, in first-seen order. */
export function distinctQueries(entries: AuditedEntry[]): PackageQuery[] {
  const seen = new Map<string, PackageQuery>();
  for (const entry of entries) {
    const query = queryOf(entry);
    if (query && !seen.has(queryKey(query))) seen.set(queryKey(query), query);
  }
  return [...seen.values()];
}

function notEvaluated(entry: AuditedEntry): string {
  return entry.local
    ? `not evaluated: local source (${entry.source})`
    : `not evaluated: "${entry.name}" is not a valid package name`;
}

/** Joins evaluations (answers to `queries`, same order) back to every entry. */
export function buildReport(
  files: LoadedFile[],
  entries: AuditedEntry[],
  queries: PackageQuery[],
  evaluations: EvaluationResult[],
): AuditReport {
  const byKey = new Map(queries.map((q, i) => [queryKey(q), evaluations[i]]));
  const results = entries.map((entry): AuditRow => {
    const query = queryOf(entry);
    const evaluation = query ? byKey.get(queryKey(query)) : undefined;
    const row: AuditRow = {
      package: entry.name,
      version: entry.version,
      evaluated_version: evaluation?.version ?? query?.version ?? null,
      pinned: entry.pinned,
      specifier: entry.specifier,
      source: entry.source,
      direct: entry.direct,
      file: entry.file,
      line: entry.line,
      verdict: evaluation?.verdict ?? null,
      reason: evaluation ? evaluation.reason : notEvaluated(entry),
      denial_category: evaluation?.denial_category ?? null,
      replacement: evaluation?.replacement ?? null,
      cves: (evaluation?.cves ?? []).map((c) => c.id),
      data: (evaluation as { data?: unknown } | undefined)?.data ?? null,
    };
    if (evaluation?.transport_error) row.transport_error = true;
    return row;
  });
  const count = (pred: (r: AuditRow) => boolean) => results.filter(pred).length;
  return {
    files: files.map((f) => ({
      file: f.file,
      format: f.format,
      manifest: f.manifest,
      packages: f.entries.length,
    })),
    results,
    summary: {
      allowed: count((r) => r.verdict === "ALLOWED" && !r.transport_error),
      provisional: count((r) => r.verdict === "PROVISIONALLY_ALLOWED"),
      denied: count((r) => r.verdict === "DENIED"),
      unpinned: count((r) => !r.pinned),
      transport_errors: count((r) => r.transport_error === true),
    },
  };
}

/**
 * Exit code of a report: 2 any denied; with `--fail-on provisional` (the
 * default) 1 for provisional packages or fail-open transport errors; else 0.
 */
export function auditExitCode(summary: AuditSummary, failOn: FailOn): number {
  if (summary.denied) return EXIT.DENIED;
  if (failOn === "provisional" && (summary.provisional || summary.transport_errors)) {
    return EXIT.PROVISIONAL;
  }
  return EXIT.OK;
}
