/**
 * Parameters shared by the reports: window, project filter, list limit.
 *
 * @module
 */
import type { AuditFilter } from "../store/types.ts";

/** Report parameters (SPEC §15.6). */
export interface ReportParams {
  days: number;
  /** null = every project. */
  project: string | null;
  limit: number;
  now: Date;
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
