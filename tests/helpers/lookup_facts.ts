/**
 * Upstream answers as the OSV and PyPI adapters give them, for tests that
 * stand in for the lookups: one MIT-licensed release 1.0, fetched on
 * 2026-11-20, and CVEs that affect it.
 *
 * @module
 */
import type { LicenseFacts, Vulnerability, VulnerabilityFacts } from "../../src/core/facts.ts";

/** When every answer here was fetched. */
export const FETCHED_AT = "2026-11-20T00:00:00Z";

/** A CVE affecting release 1.0 of the package. */
export function cveOn10(
  id: string,
  score: number,
  summary: string,
  aliases: string[] = [],
): Vulnerability {
  return { id, aliases, score, summary, affected: [{ versions: ["1.0"], ranges: [] }] };
}

/** An OSV answer listing `vulnerabilities`. */
export function osvAnswer(vulnerabilities: Vulnerability[]): VulnerabilityFacts {
  return { status: "ok", fetched_at: FETCHED_AT, vulnerabilities };
}

/** A PyPI answer: MIT, latest 1.0, released at `releasedAt`. */
export function mitRelease(releasedAt: string | null): LicenseFacts {
  return {
    status: "ok",
    fetched_at: FETCHED_AT,
    license: "MIT",
    license_raw: "MIT",
    latest_version: "1.0",
    released_at: releasedAt,
  };
}
