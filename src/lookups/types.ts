/**
 * Interfaces through which the evaluation service reaches upstream data.
 * Implementations: `osv.ts` (vulnerabilities), `pypi.ts` (licenses), and
 * `none.ts` (no data, for tests and offline use).
 *
 * @module
 */
import type { LicenseFacts, VulnerabilityFacts } from "../core/types.ts";

/** Looks up the vulnerabilities of a package, at a version or across all versions. */
export interface VulnerabilitySource {
  /** Never throws: errors and time-outs yield `{status: "unavailable"}`. */
  query(name: string, version: string | null): Promise<VulnerabilityFacts>;
}

/** Looks up the license and latest version of a package on the package index. */
export interface LicenseSource {
  /** Never throws: errors and time-outs yield `{status: "unavailable"}`. */
  lookup(name: string, version: string | null): Promise<LicenseFacts>;
}
