/**
 * One row of `policyd check-config`'s report.
 *
 * @module
 */

/** Outcome of one check. */
export type CheckStatus = "ok" | "warn" | "fail";

/** One row of the report. */
export interface CheckRow {
  check: string;
  status: CheckStatus;
  detail: string;
  /** What to do about it (empty when nothing). */
  hint: string;
}

/** A report row. */
export const row = (check: string, status: CheckStatus, detail: string, hint = ""): CheckRow => ({
  check,
  status,
  detail,
  hint,
});
