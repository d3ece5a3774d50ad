/**
 * Plain data types of the evaluation core. Everything here is serialisable
 * and free of I/O: adapters gather facts, the core decides.
 *
 * @module
 */

/** The three answers policyd gives. */
export const VERDICTS = ["ALLOWED", "DENIED", "PROVISIONALLY_ALLOWED"] as const;

/** One of {@link VERDICTS}. */
export type Verdict = typeof VERDICTS[number];

/** Statuses a registry rule may carry (SPEC §5). */
export const REGISTRY_STATUSES = [
  "preferred",
  "approved",
  "version-constrained",
  "deprecated",
  "banned",
] as const;

/** A registry rule status. */
export type RegistryStatus = typeof REGISTRY_STATUSES[number];

/** Why a package was denied. Scanner alerts use `DENIAL_CVE_ALERT`. */
export const DENIAL_CATEGORIES = [
  "DENIAL_BANNED",
  "DENIAL_DEPRECATED",
  "DENIAL_VERSION_CONSTRAINT",
  "DENIAL_CVE",
  "DENIAL_LICENSE",
  "DENIAL_LICENSE_UNKNOWN",
  "DENIAL_DATA_UNAVAILABLE",
  "DENIAL_MALICIOUS",
  "DENIAL_NOT_FOUND",
  "DENIAL_TYPOSQUAT",
  "DENIAL_NEW_PROJECT",
  "DENIAL_YANKED",
] as const;

/** One of {@link DENIAL_CATEGORIES}. */
export type DenialCategory = typeof DENIAL_CATEGORIES[number];

/** Kinds of supply-chain threat an evaluation may list (SPEC §17.2). */
export const THREAT_KINDS = [
  "malicious",
  "not_found",
  "typosquat",
  "new_project",
  "yanked",
] as const;

/** One of {@link THREAT_KINDS}. */
export type ThreatKind = typeof THREAT_KINDS[number];

/** One threat found while deciding: listed on every evaluation, audit row and answer. */
export interface Threat {
  kind: ThreatKind;
  /** The advisory id (`MAL-…`) of a malicious finding. */
  id?: string;
  /** One sentence saying what was found. */
  detail: string;
  /** The popular project(s) a typosquat imitates, or "did you mean" names of a missing one. */
  similar_to?: string[];
}

/** What to do with a look-alike of a popular project (`policies.typosquat`). */
export type TyposquatPolicy = "deny" | "provisional" | "off";

/** Where a call came from (the `X-Policy-Source` header; audited per row). */
export const CALL_SOURCES = [
  "check",
  "hook",
  "precommit",
  "audit",
  "api",
  "mcp",
  "index",
] as const;

/** One of {@link CALL_SOURCES}. */
export type CallSource = typeof CALL_SOURCES[number];

/** One package rule of the registry, name already PEP 503-normalised. */
export interface PackageRule {
  name: string;
  status: RegistryStatus;
  reason?: string;
  replacement?: string;
  min_version?: string;
  max_version?: string;
}

/** What to do with a package whose license cannot be determined. */
export type UnknownLicensePolicy = "allow" | "provisional" | "deny";

/** What to do when a lookup the decision needs is unavailable. */
export type MissingDataPolicy = "allow" | "provisional" | "deny";

/** Which vulnerabilities count for an evaluation without a version. */
export type UnversionedCveScope = "latest" | "any";

/** Global policies of the registry. */
export interface Policies {
  cve_threshold: number;
  block_on_cve: boolean;
  unversioned_cve_scope: UnversionedCveScope;
  licenses: { allowed: string[]; denied: string[] };
  unknown_license_policy: UnknownLicensePolicy;
  /** Applied when a lookup the decision needs is unavailable (default `allow`). */
  on_missing_data: MissingDataPolicy;
  /** Releases younger than this many days are only provisionally allowed; 0 = off. */
  min_release_age_days: number;
  /** Look-alikes of popular projects: deny (default), provisional or off. */
  typosquat?: TyposquatPolicy;
  /** Projects whose first release is younger than this many days are denied (default 14); 0 = off. */
  min_project_age_days?: number;
}

/**
 * A registry exception: waives the named vulnerabilities and/or licenses of
 * one package (optionally only for some versions) until `expires` (inclusive).
 */
export interface RegistryException {
  /** PEP 503-normalised package name. */
  package: string;
  /** PEP 440 specifier, e.g. `<2.32`; absent = every version. */
  versions?: string;
  /** Vulnerability ids or aliases the exception waives. */
  vulnerabilities?: string[];
  /** SPDX ids (or `UNKNOWN`) the exception accepts. */
  licenses?: string[];
  reason: string;
  /** `YYYY-MM-DD`; the exception holds through this day (UTC). */
  expires: string;
  approved_by?: string;
}

/** The compiled registry: validated, normalised, sorted by name. */
export interface CompiledRegistry {
  version: string;
  compiled_at: string;
  policies: Policies;
  packages: PackageRule[];
  /** Exceptions, sorted by package then expiry; expired ones are kept (and ignored). */
  exceptions: RegistryException[];
}

/**
 * An immutable view of one compiled registry with an index by name.
 * Reload swaps the whole snapshot; evaluations hold on to the one they began with.
 */
export interface RegistrySnapshot {
  readonly registry: CompiledRegistry;
  readonly byName: ReadonlyMap<string, PackageRule>;
  /** Content hash of the source document, used to detect "unchanged". */
  readonly contentHash: string;
}

export type * from "./facts.ts";

/** What is being evaluated: a normalised name and an optional PEP 440 version. */
export interface EvaluationRequest {
  name: string;
  version: string | null;
}

/** One vulnerability as reported in an evaluation. */
export interface ReportedCve {
  id: string;
  score: number | null;
  aliases: string[];
  summary?: string;
}

/** Where the data behind a decision came from (issue 14). */
export const DATA_STATUSES = ["fresh", "cached", "unavailable", "skipped"] as const;

/** One of {@link DATA_STATUSES}. */
export type DataStatus = typeof DATA_STATUSES[number];

/** Status and fetch time of one kind of upstream data. */
export interface DataSource {
  status: DataStatus;
  /** ISO-8601 time of the upstream fetch; null when unavailable or skipped. */
  fetched_at: string | null;
}

/** What the decision knew: one entry per lookup. */
export interface DecisionData {
  vulnerabilities: DataSource;
  license: DataSource;
}

/** An exception that removed findings from a decision. */
export interface AppliedException {
  package: string;
  /** The vulnerability ids it waived (as reported). */
  vulnerabilities?: string[];
  /** The license ids it accepted. */
  licenses?: string[];
  reason: string;
  expires: string;
}

/** The decision of the core (SPEC §7 Evaluation minus the audit fields). */
export interface Decision {
  package: string;
  version: string | null;
  verdict: Verdict;
  reason: string;
  denial_category: DenialCategory | null;
  registry_status: RegistryStatus | null;
  replacement: string | null;
  license: string | null;
  license_raw: string | null;
  latest_version: string | null;
  cves: ReportedCve[];
  max_cvss: number | null;
  data: DecisionData;
  exceptions_applied: AppliedException[];
  /** Supply-chain threats found (SPEC §17.2); empty when none. */
  threats: Threat[];
}

/** A decision as returned by the API: with the registry version and audit id. */
export interface Evaluation extends Decision {
  registry_version: string;
  audit_id: number;
}
