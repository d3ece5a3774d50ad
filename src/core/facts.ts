/**
 * The facts the lookups gather before the core decides: vulnerabilities
 * (OSV, after alias merging) and licence and release data (PyPI), each with
 * when it was fetched. Re-exported by `types.ts`.
 *
 * @module
 */

/** One ECOSYSTEM range of an OSV `affected` entry, events in order. */
export interface AffectedRange {
  events: Array<{ introduced?: string; fixed?: string; last_affected?: string; limit?: string }>;
}

/** Versions a vulnerability affects for one package (from OSV `affected`). */
export interface AffectedVersions {
  versions: string[];
  ranges: AffectedRange[];
}

/**
 * One vulnerability after alias merging: `id` is the reported identifier
 * (the CVE alias when there is one, else the GHSA id, else the record id).
 */
export interface Vulnerability {
  id: string;
  /** Every record id and alias merged into this entry. */
  aliases: string[];
  /** Highest CVSS base score among the merged records; null when none could be computed. */
  score: number | null;
  summary?: string;
  /** The package's affected versions, used to scope version-less lookups. */
  affected: AffectedVersions[];
  /** A malicious-package advisory (`MAL-` id or `malicious-packages-origins`); never scored. */
  malicious?: boolean;
}

/** Result of a vulnerability lookup: data, or a note that none could be had. */
export type VulnerabilityFacts =
  | ({ status: "ok"; vulnerabilities: Vulnerability[] } & FetchStamp)
  | { status: "unavailable"; detail: string };

/** When upstream data was fetched, and whether this answer came from the cache. */
export interface FetchStamp {
  /** ISO-8601 time of the upstream fetch (kept by the cache). */
  fetched_at?: string;
  /** Set by the cache on a hit; never stored. */
  cached?: boolean;
}

/** Result of a license lookup from the package index. */
export type LicenseFacts =
  | {
    status: "ok";
    /** SPDX id or expression, or `UNKNOWN`. */
    license: string;
    /** The exact string the license was taken from; null when there was none. */
    license_raw: string | null;
    latest_version: string | null;
    /**
     * Upload time (ISO-8601) of the evaluated release, or of the latest release
     * for a version-less lookup; null when the index lists no files for it.
     */
    released_at?: string | null;
    /** PyPI answered 404: for the project, or for the release of a known project. */
    not_found?: "project" | "release";
    /** Upload time (ISO-8601) of the project's first release; null when unknown. */
    first_released_at?: string | null;
    /** How many releases with files the project has; null when unknown. */
    release_count?: number | null;
    /** The evaluated release is yanked (PEP 592). */
    yanked?: boolean;
    /** The yank reason PyPI gives, if any. */
    yanked_reason?: string | null;
  } & FetchStamp
  | { status: "unavailable"; detail: string };

/** Facts gathered by adapters before the core decides. */
export interface EvaluationFacts {
  vulnerabilities: VulnerabilityFacts | null;
  license: LicenseFacts | null;
}
