/**
 * Interfaces through which the evaluation service reaches upstream data.
 * Implementations: `osv.ts` (vulnerabilities), `pypi.ts` (licenses),
 * `osv_scan.ts` (the CVE scanner's batch queries) and `none.ts` (no data, for
 * tests and offline use).
 *
 * @module
 */
import type { LicenseFacts, Vulnerability, VulnerabilityFacts } from "../core/types.ts";
import type { UpstreamHealth } from "./upstream_health.ts";

/** Optional collaborators of an upstream lookup source (OSV, PyPI). */
export interface SourceOptions {
  /** Clock of `fetched_at`; default the system clock. */
  now?: () => Date;
  /** Told about every answer and failure, for `/health`. */
  health?: UpstreamHealth;
}

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

/** One scan of many packages (what the CVE scanner asks for, SPEC §6.5). */
export interface ScanResult {
  /** Every known vulnerability (all versions) per package that was fully answered. */
  vulnerabilities: Map<string, Vulnerability[]>;
  /** Packages whose data could not be had in full, with a detail; never half-answered. */
  failed: Map<string, string>;
  /** Upstream calls made: batch queries and record fetches. */
  calls: { batch: number; detail: number };
}

/** Looks up the vulnerabilities of many packages at once, across all versions. */
export interface VulnerabilityScanSource {
  /** Never throws for upstream trouble: failures are per package in `failed`. */
  scan(names: readonly string[]): Promise<ScanResult>;
}
