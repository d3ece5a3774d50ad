/**
 * Reading the data-availability and exception fields of the security and
 * legal reports. They are optional here: a report built without them shows
 * "not reported", never an all-clear.
 *
 * @module
 */

/** How many evaluations of a window had their upstream data. */
export interface DataAvailability {
  evaluations: number;
  vulnerabilities_unavailable: number;
  license_unavailable: number;
}

/** One registry exception as the reports list it. */
export interface ExceptionEntry {
  package: string;
  expires: string | null;
  reason: string | null;
  project: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** The report's `data_availability`, or null when the report does not carry it. */
export function availabilityOf(report: unknown): DataAvailability | null {
  if (!isRecord(report) || !isRecord(report.data_availability)) return null;
  const d = report.data_availability;
  return {
    evaluations: count(d.evaluations),
    vulnerabilities_unavailable: count(d.vulnerabilities_unavailable),
    license_unavailable: count(d.license_unavailable),
  };
}

function entries(list: unknown): ExceptionEntry[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isRecord).map((e) => ({
    package: text(e.package) ?? text(e.name) ?? "?",
    expires: text(e.expires) ?? text(e.expires_at) ?? text(e.until),
    reason: text(e.reason),
    project: text(e.project),
  }));
}

/** The report's `exceptions` (expiring and expired), or null when it does not carry them. */
export function exceptionsOf(
  report: unknown,
): { expiring: ExceptionEntry[]; expired: ExceptionEntry[] } | null {
  if (!isRecord(report) || !isRecord(report.exceptions)) return null;
  return {
    expiring: entries(report.exceptions.expiring),
    expired: entries(report.exceptions.expired),
  };
}
