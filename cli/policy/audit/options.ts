/**
 * The option values of `policy audit`, in a module of their own so the
 * command line can list them without loading the command.
 *
 * @module
 */

/** Output formats of `audit`. */
export const AUDIT_FORMATS = ["table", "json", "sarif", "markdown"] as const;

/** One of {@link AUDIT_FORMATS}. */
export type AuditFormat = typeof AUDIT_FORMATS[number];

/** Verdict thresholds of `--fail-on`. */
export const FAIL_ON = ["denied", "provisional"] as const;

/** One of {@link FAIL_ON}. */
export type FailOn = typeof FAIL_ON[number];
