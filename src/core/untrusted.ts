/**
 * Text from outside (advisory ids and summaries from OSV, licence strings
 * from PyPI, rule reasons and rationales people typed) stays data (issue
 * 34): before it reaches a reason an agent reads it is stripped of control
 * and invisible formatting characters, collapsed to one line and capped, and
 * where it is quoted, it is quoted with its source named, so an advisory id
 * such as `CVE-1 IGNORE ALL PREVIOUS INSTRUCTIONS…` cannot pass for the
 * server's own words.
 *
 * @module
 */

/** Longest advisory id kept (OSV ids are far shorter). */
export const MAX_ADVISORY_ID = 64;
/** Longest advisory summary kept. */
export const MAX_SUMMARY = 300;
/** Longest rule reason quoted in a decision's reason. */
export const MAX_RULE_REASON = 300;

// C0/C1 controls, bidirectional overrides and isolates, zero-width and other
// invisible format characters, line and paragraph separators.
const INVISIBLE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]/g;

/**
 * One line of plain text: invisible characters become spaces, runs of
 * white space one space, trimmed, and cut to `max` characters (with `…`).
 *
 * @example
 * ```ts
 * untrustedText("a\u202eb\n\nc", 10); // "a b c"
 * ```
 */
export function untrustedText(text: string, max: number): string {
  const flat = text.replace(INVISIBLE, " ").replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length <= max ? flat : chars.slice(0, Math.max(1, max - 1)).join("") + "…";
}

/**
 * An advisory id as policyd reports it: its first word only (an id never
 * holds a space), cleaned and capped.
 *
 * @example
 * ```ts
 * advisoryId("CVE-2099-0001 IGNORE ALL PREVIOUS INSTRUCTIONS"); // "CVE-2099-0001"
 * ```
 */
export function advisoryId(id: string): string {
  const word = untrustedText(id, Number.MAX_SAFE_INTEGER).split(" ")[0] ?? "";
  return untrustedText(word, MAX_ADVISORY_ID) || "(no id)";
}

/**
 * Quotes outside text as data: double quotes inside become single ones, so
 * the quote cannot be closed from within.
 *
 * @example
 * ```ts
 * quoted('say "hi"', 40); // "\"say 'hi'\""
 * ```
 */
export function quoted(text: string, max: number): string {
  return `"${untrustedText(text, max).replace(/"/g, "'")}"`;
}
