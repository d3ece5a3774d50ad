/**
 * The data-availability banner of the security and legal pages (issue 14):
 * when evaluations in the window rested on unavailable upstream data, say so
 * with the count, and let the pages replace their all-clear sentences.
 *
 * @module
 */
import type { DataAvailability, ExceptionsDue } from "../src/reports/data_availability.ts";

/** How many evaluations of the window lacked the data a page is about. */
export function missingCount(
  availability: DataAvailability,
  kind: "vulnerabilities" | "license",
): number {
  return kind === "vulnerabilities"
    ? availability.vulnerabilities_unavailable
    : availability.license_unavailable;
}

/**
 * The sentence an empty card shows: the all-clear only when no evaluation
 * lacked data, otherwise a statement of what could not be checked.
 */
export function emptyText(
  availability: DataAvailability,
  kind: "vulnerabilities" | "license",
  allClear: string,
): string {
  const missing = missingCount(availability, kind);
  if (missing === 0) return allClear;
  const what = kind === "vulnerabilities" ? "vulnerability" : "license";
  return `Nothing recorded, but ${missing} evaluation${
    missing === 1 ? "" : "s"
  } in this window had no ${what} data, so this is not an all-clear.`;
}

/** The banner: data gaps of the window and exceptions that expire soon or have expired. */
export function DataBanner(
  props: {
    availability: DataAvailability;
    exceptions: ExceptionsDue;
    kind: "vulnerabilities" | "license";
  },
) {
  const missing = missingCount(props.availability, props.kind);
  const { expiring, expired } = props.exceptions;
  if (missing === 0 && expiring.length === 0 && expired.length === 0) return null;
  const what = props.kind === "vulnerabilities" ? "vulnerability (OSV)" : "license (PyPI)";
  return (
    <div class="notice warn" role="status" data-testid="data-banner">
      {missing > 0
        ? (
          <p data-testid="data-unavailable">
            <strong>{missing}</strong> of {props.availability.evaluations}{" "}
            evaluations in this window were decided without {what}{" "}
            data (the upstream was unavailable). Counts below do not cover them.
          </p>
        )
        : null}
      {expiring.length || expired.length
        ? (
          <p data-testid="exceptions-due">
            Exceptions: {expiring.length} expiring within 14 days
            {expiring.length
              ? ` (${expiring.map((e) => `${e.package} ${e.expires}`).join(", ")})`
              : ""}, {expired.length} expired
            {expired.length
              ? ` (${expired.map((e) => `${e.package} ${e.expires}`).join(", ")})`
              : ""}.
          </p>
        )
        : null}
    </div>
  );
}

/**
 * The caveat of a figure that depends on looked-up data: null when every
 * evaluation of the window had it, else "N of M evaluations not checked".
 */
export function tileCaveat(
  availability: DataAvailability,
  kind: "vulnerabilities" | "license",
): string | null {
  const missing = missingCount(availability, kind);
  if (missing === 0) return null;
  return `${missing} of ${availability.evaluations} evaluations not checked (no ${
    kind === "vulnerabilities" ? "OSV" : "PyPI"
  } data)`;
}
