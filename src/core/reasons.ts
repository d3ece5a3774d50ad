/**
 * Every reason text of the evaluation core, in one table keyed by category:
 * the denial categories plus the outcomes that allow. The verdict functions
 * pick a key and hand over plain facts; only this module writes English.
 *
 * @module
 */
import type { DenialCategory, RegistryStatus } from "./types.ts";
import { advisoryId, MAX_ADVISORY_ID, quoted } from "./untrusted.ts";

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
