/**
 * What a package page may say when it found no vulnerability or license
 * (issue #31: the explanation follows the page's own data): how many of the
 * recent evaluations looked the data up, could not (the upstream was
 * unavailable) or did not need to (a registry rule decided).
 *
 * @module
 */
import type { AuditRow } from "../src/store/types.ts";

/** Counts of what the recent evaluations knew of one kind of data. */
export interface DataTally {
  checked: number;
  unavailable: number;
  skipped: number;
  unrecorded: number;
}

/** Tallies the evaluations (scanner alerts left out) of `rows`. */
export function tallyData(rows: AuditRow[], kind: "vulnerabilities" | "license"): DataTally {
  const tally: DataTally = { checked: 0, unavailable: 0, skipped: 0, unrecorded: 0 };
  for (const row of rows) {
    if (row.verdict === "CVE_ALERT") continue;
    const status = row.data?.[kind]?.status;
    if (status === "fresh" || status === "cached") tally.checked++;
    else if (status === "unavailable") tally.unavailable++;
    else if (status === "skipped") tally.skipped++;
    else tally.unrecorded++;
  }
  return tally;
}

/**
 * The sentence of an empty vulnerabilities or license card.
 *
 * @example
 * ```ts
 * emptyDataSentence({ checked: 0, unavailable: 2, skipped: 0, unrecorded: 0 }, "vulnerabilities");
 * // "No vulnerability recorded, but OSV was unavailable for all 2 recent evaluations, so …"
 * ```
 */
export function emptyDataSentence(tally: DataTally, kind: "vulnerabilities" | "license"): string {
  const total = tally.checked + tally.unavailable + tally.skipped + tally.unrecorded;
  const what = kind === "vulnerabilities" ? "vulnerability" : "license";
  const source = kind === "vulnerabilities" ? "OSV" : "PyPI";
  if (total === 0) {
    return `No evaluation of this package is recorded, so nothing is known of its ${what}.`;
  }
  const parts: string[] = [];
  if (tally.checked) parts.push(`${tally.checked} checked ${source}`);
  if (tally.unavailable) parts.push(`${source} was unavailable for ${tally.unavailable}`);
  if (tally.skipped) parts.push(`${tally.skipped} did not look it up (the registry rule decided)`);
  if (tally.unrecorded) parts.push(`${tally.unrecorded} recorded no data status`);
  const of = `Of the ${total} recent evaluation${total === 1 ? "" : "s"}, ${parts.join(", ")}.`;
  if (tally.checked === 0) {
    return kind === "vulnerabilities"
      ? `No vulnerability recorded, but none of them was checked against OSV, so this is not a statement that none exist. ${of}`
      : `No license recorded: none of them looked it up. ${of}`;
  }
  return kind === "vulnerabilities"
    ? `No recorded evaluation listed a vulnerability. ${of}`
    : `No recorded evaluation found a license. ${of}`;
}
