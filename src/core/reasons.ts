/**
 * Every reason text of the evaluation core, in one table keyed by category:
 * the denial categories plus the outcomes that allow. The verdict functions
 * pick a key and hand over plain facts; only this module writes English.
 *
 * @module
 */
import type { Lookalike } from "./popular_index.ts";
import type { DenialCategory, RegistryStatus, Threat, Verdict } from "./types.ts";
import { advisoryId, MAX_ADVISORY_ID, MAX_SUMMARY, quoted } from "./untrusted.ts";

/** Facts a reason text may mention. */
export interface ReasonFacts {
  /** `name` or `name==version`. */
  subject: string;
  name: string;
  /** ` (registry reason: "<rule reason>")` or empty (see `whyOf`). */
  why: string;
  replacement?: string | null;
  /** Why a version lies outside its constraint. */
  outside?: string;
  status?: RegistryStatus;
  maxCvss?: number | null;
  threshold?: number;
  /** Ids of the vulnerabilities at or above the threshold. */
  blocking?: string[];
  /** Vulnerabilities below the threshold. */
  belowThreshold?: number;
  license?: string;
  /** How the license fares: allowed, unknown or unlisted. */
  licenseStanding?: "allowed" | "unknown" | "unlisted";
  /** Notes such as "vulnerability data was unavailable". */
  missing?: string[];
  /** `; allowed versions: >=1,<=2` for a version-less version-constrained package. */
  range?: string;
  ageDays?: number;
  waitDays?: number;
  /** The project's latest release, when known. */
  latest?: string;
  /** The threat a denial names (malicious, not found, typosquat, new project, yanked). */
  threat?: Threat;
  /** What PyPI does not know: the project, or the requested release of it. */
  notFound?: "project" | "release";
  /** `policies.min_project_age_days` of a new-project denial. */
  minProjectDays?: number;
}

/** Reason keys that are not denials. */
export type OutcomeKey =
  | "ALLOWED_BY_REGISTRY"
  | "PROVISIONAL_UNKNOWN_PACKAGE"
  | "PROVISIONAL_NO_LICENSE_DATA"
  | "PROVISIONAL_MISSING_DATA"
  | "PROVISIONAL_RELEASE_AGE";

/** Every key of {@link REASONS}. */
export type ReasonKey = DenialCategory | OutcomeKey;

const useInstead = (f: ReasonFacts) => f.replacement ? `; use ${f.replacement} instead` : "";
const joined = (f: ReasonFacts) => (f.missing ?? []).join(" and ");
const dataNote = (f: ReasonFacts) => f.missing?.length ? `; ${joined(f)}` : "";

/** Describes a release age: "today", "1 day ago", "3 days ago". */
export function ageText(days: number): string {
  return days <= 0 ? "today" : days === 1 ? "1 day ago" : `${days} days ago`;
}

/** The cooldown sentence: "released 2 days ago; the policy waits 7 days". */
export function releaseAgeNote(ageDays: number, waitDays: number): string {
  return `released ${ageText(ageDays)}; the policy waits ${waitDays} day${
    waitDays === 1 ? "" : "s"
  }`;
}

function licenseNote(f: ReasonFacts): string {
  switch (f.licenseStanding) {
    case "allowed":
      return `its license ${f.license} is allowed`;
    case "unknown":
      return "its license is unknown";
    default:
      return `its license ${f.license} is in neither license list`;
  }
}

const backticked = (names: string[]) => names.map((n) => `\`${n}\``).join(", ");
const didYouMean = (t?: Threat) =>
  t?.similar_to?.length ? `; did you mean ${backticked(t.similar_to)}?` : "";

/** The `detail` sentence of each threat kind (the reasons below build on them). */
export const THREAT_DETAILS = {
  malicious: (id: string, summary?: string) =>
    `known malicious package (${advisoryId(id)}${
      summary?.trim() ? `; OSV summary: ${quoted(summary, MAX_SUMMARY)}` : ""
    })`,
  noProject: (name: string) => `PyPI has no project named \`${name}\``,
  noRelease: (version: string, latest: string | null) =>
    `no release ${version}${latest ? `; latest is ${latest}` : ""}`,
  typosquat: (
    name: string,
    found: Lookalike,
    established: { ageDays: number; releases: number } | null,
  ) => {
    const how = found.how === "edit" ? "a typo of" : "an imitation of";
    const base = `\`${name}\` looks like ${how} \`${found.similar_to}\` (a popular project)`;
    return established
      ? `${base}; it is an established project (first released ${
        ageText(established.ageDays)
      }, ${established.releases} releases)`
      : base;
  },
  newProject: (ageDays: number) => `first released on PyPI ${ageText(ageDays)}`,
  yanked: (version: string, reason: string | null) =>
    `release ${version} was yanked from PyPI${
      reason?.trim()
        ? `; yank reason from PyPI: ${quoted(reason, MAX_SUMMARY)}`
        : " (no reason given)"
    }`,
} as const;

/**
 * A reason with the threats an allowing decision still lists appended
 * ("…; warning: `pytest-pypy` looks like a typo of …"); a denial's reason
 * already names the threat that decided it.
 */
export function withThreatNotes(reason: string, verdict: Verdict, threats: Threat[]): string {
  if (verdict === "DENIED" || !threats.length) return reason;
  return `${reason}; warning: ${threats.map((t) => t.detail).join("; ")}`;
}

/** The reason text of every category and outcome. */
export const REASONS: Record<ReasonKey, (facts: ReasonFacts) => string> = {
  DENIAL_BANNED: (f) => `${f.name} is banned by the registry${f.why}${useInstead(f)}`,
  DENIAL_DEPRECATED: (f) => `${f.name} is deprecated${f.why}${useInstead(f)}`,
  DENIAL_VERSION_CONSTRAINT: (f) =>
    `${f.subject} is outside the allowed range (${f.outside})${f.why}`,
  DENIAL_CVE: (f) =>
    `${f.subject} has vulnerabilities with CVSS ${f.maxCvss} at or above the ` +
    `threshold ${f.threshold}: advisory ids (from OSV): ${
      (f.blocking ?? []).map((id) => quoted(advisoryId(id), MAX_ADVISORY_ID)).join(", ")
    }`,
  DENIAL_LICENSE: (f) => `${f.subject} is licensed ${f.license}, which the registry denies`,
  DENIAL_LICENSE_UNKNOWN: (f) =>
    `${f.subject} has no recognisable license and the policy denies unknown licenses`,
  DENIAL_DATA_UNAVAILABLE: (f) =>
    `${f.subject} cannot be checked: ${joined(f)}, and the policy denies when data is missing`,
  DENIAL_MALICIOUS: (f) =>
    `${f.subject} is a ${f.threat?.detail ?? "known malicious package"}; ` +
    `do not install it, and remove it where it is installed`,
  DENIAL_NOT_FOUND: (f) =>
    f.notFound !== "release"
      ? `\`${f.name}\` does not exist on PyPI (language models invent package names, and ` +
        `attackers register them)${didYouMean(f.threat)}`
      : `${f.subject} does not exist on PyPI: ${f.threat?.detail}`,
  DENIAL_TYPOSQUAT: (f) => `${f.threat?.detail ?? f.name}${didYouMean(f.threat)}`,
  DENIAL_NEW_PROJECT: (f) =>
    `${f.name} was ${f.threat?.detail ?? "first released recently"}; the policy denies ` +
    `projects younger than ${f.minProjectDays} days until they are reviewed`,
  DENIAL_YANKED: (f) =>
    `${f.subject}: ${f.threat?.detail ?? "the release was yanked"}` +
    (f.latest ? `; latest is ${f.latest}` : ""),
  ALLOWED_BY_REGISTRY: (f) => {
    const cves = f.belowThreshold
      ? `; ${f.belowThreshold} known vulnerabilities below the threshold ${f.threshold}`
      : "";
    const missing = f.missing?.length ? ` (${joined(f)})` : "";
    return `${f.subject} is ${f.status} in the registry${f.why}${f.range ?? ""}${cves}${missing}`;
  },
  PROVISIONAL_UNKNOWN_PACKAGE: (f) => {
    const cves = f.belowThreshold
      ? `; ${f.belowThreshold} known vulnerabilities below the threshold`
      : "";
    const young = f.ageDays === undefined ? "" : `; ${releaseAgeNote(f.ageDays, f.waitDays ?? 0)}`;
    return `${f.subject} is not in the registry; ${licenseNote(f)}${cves}${dataNote(f)}${young}; ` +
      `provisionally allowed pending review`;
  },
  PROVISIONAL_NO_LICENSE_DATA: (f) =>
    `${f.subject} is not in the registry; ${
      joined(f)
    }, so it is provisionally allowed pending review`,
  PROVISIONAL_MISSING_DATA: (f) =>
    `${f.subject} is ${f.status} in the registry${f.why}, but ${joined(f)}, ` +
    `so it is provisionally allowed until the data can be checked`,
  PROVISIONAL_RELEASE_AGE: (f) =>
    `${f.subject} is ${f.status} in the registry, but it was ` +
    `${releaseAgeNote(f.ageDays ?? 0, f.waitDays ?? 0)}`,
};
