/**
 * Decides a project page version by version with the pure core: the facts
 * of the whole project (one OSV answer for all versions, one PyPI metadata
 * answer) are narrowed to each version (the vulnerabilities whose affected
 * ranges contain it, the upload time of its files, PEP 700) and the core's
 * public decision function decides. A version the policy denies loses every
 * file; so does a version whose every file upstream has yanked. Pure.
 *
 * @module
 */
import { isAffected, versionComparer } from "../core/affected.ts";
import { evaluate } from "../core/evaluate.ts";
import { decisionStableUntil } from "../core/facts_verdict.ts";
import type {
  Decision,
  EvaluationFacts,
  LicenseFacts,
  RegistrySnapshot,
  VulnerabilityFacts,
} from "../core/types.ts";
import { MAX_SUMMARY, untrustedText } from "../core/untrusted.ts";
import { versionOfFile } from "./filename.ts";
import type { PageFile, ProjectPage } from "./page.ts";

/** The facts gathered once for a whole project page. */
export interface ProjectFacts {
  vulnerabilities: VulnerabilityFacts;
  license: LicenseFacts;
}

/** The decision about one version on the page. */
export interface VersionDecision {
  allowed: boolean;
  /** The core's decision (for yanked releases: the core's, turned into a denial). */
  decision: Decision;
}

/** Why no file of a project may be installed: one line, the decision, the PEP 792 status. */
export interface ProjectDenial {
  reason: string;
  decision: Decision;
  status: "quarantined" | "deprecated" | null;
}

/** A decided page: what stays, and why the rest does not. */
export interface PageDecision {
  /** The page with only the files of allowed versions. */
  page: ProjectPage;
  /** Decisions by version. */
  versions: ReadonlyMap<string, VersionDecision>;
  /** The version of each file on the upstream page (files without one are left out). */
  fileVersions: ReadonlyMap<string, string>;
  /** Set when no file of the project may be installed. */
  denied: ProjectDenial | null;
  /** The decision holds until this time (ms since the epoch). */
  until: number;
}

function vulnerabilitiesAt(
  facts: VulnerabilityFacts,
  version: string,
  cmp: (a: string, b: string) => number,
): VulnerabilityFacts {
  if (facts.status !== "ok") return facts;
  return {
    ...facts,
    vulnerabilities: facts.vulnerabilities.filter((v) => isAffected(v.affected, version, cmp)),
  };
}

function earliestUpload(files: readonly PageFile[]): string | null {
  let earliest = NaN;
  for (const file of files) {
    const ms = typeof file["upload-time"] === "string" ? Date.parse(file["upload-time"]) : NaN;
    if (!Number.isNaN(ms) && !(earliest <= ms)) earliest = ms;
  }
  return Number.isNaN(earliest) ? null : new Date(earliest).toISOString();
}

/** The yank of a release from its files (PEP 592): yanked when every file is. */
function yankOf(files: readonly PageFile[]): { yanked: boolean; reason: string | null } {
  const yanked = files.every((f) => f.yanked !== undefined && f.yanked !== false);
  const reason = files.find((f) => typeof f.yanked === "string" && f.yanked)?.yanked;
  return { yanked, reason: yanked && typeof reason === "string" ? reason : null };
}

/**
 * The project's PyPI facts narrowed to one release: its upload time, and the
 * per-release members a versioned lookup carries (`yanked`, `yanked_reason`;
 * a version-less lookup's `not_found: "release"` does not apply), taken from
 * the page so the core's rules for them decide.
 */
function licenseAt(facts: LicenseFacts, version: string, files: readonly PageFile[]): LicenseFacts {
  if (facts.status !== "ok") return facts;
  const uploaded = earliestUpload(files);
  const released_at = uploaded ??
    (facts.latest_version === version ? facts.released_at ?? null : null);
  const yank = yankOf(files);
  return {
    ...facts,
    released_at,
    yanked: yank.yanked,
    yanked_reason: yank.reason,
    not_found: facts.not_found === "release" ? undefined : facts.not_found,
  };
}

const STATUS_OF: Partial<Record<string, "quarantined" | "deprecated">> = {
  DENIAL_BANNED: "quarantined",
  DENIAL_MALICIOUS: "quarantined",
  DENIAL_DEPRECATED: "deprecated",
};

/** The project denial of a version-less denial, with its PEP 792 status where one applies. */
export function projectDenialOf(decision: Decision): ProjectDenial {
  return {
    reason: decision.reason,
    decision,
    status: STATUS_OF[decision.denial_category ?? ""] ?? null,
  };
}

/**
 * Decides every version of `page` for project `name` (normalised).
 *
 * @example
 * ```ts
 * import type { RegistrySnapshot } from "../core/types.ts";
 * import type { ProjectPage } from "./page.ts";
 * declare const snapshot: RegistrySnapshot, page: ProjectPage, facts: ProjectFacts;
 * const decided = decidePage("requests", page, snapshot, facts, new Date());
 * decided.page.files.length; // the files of allowed versions
 * ```
 */
export function decidePage(
  name: string,
  page: ProjectPage,
  snapshot: RegistrySnapshot,
  facts: ProjectFacts,
  now: Date,
): PageDecision {
  const fileVersions = new Map<string, string>();
  const filesOf = new Map<string, PageFile[]>();
  for (const file of page.files) {
    const version = versionOfFile(name, file.filename);
    if (version === null) continue;
    fileVersions.set(file.filename, version);
    const list = filesOf.get(version);
    if (list) list.push(file);
    else filesOf.set(version, [file]);
  }
  const versions = new Map<string, VersionDecision>();
  // One comparison for the page: each version string is parsed once.
  const cmp = versionComparer();
  let until = Infinity;
  for (const [version, files] of filesOf) {
    const versionFacts: EvaluationFacts = {
      vulnerabilities: vulnerabilitiesAt(facts.vulnerabilities, version, cmp),
      license: licenseAt(facts.license, version, files),
    };
    const decision = evaluate({ name, version }, snapshot, versionFacts, now);
    until = Math.min(until, decisionStableUntil(versionFacts, now));
    // The core denies a yanked release from the narrowed facts (DENIAL_YANKED); when
    // PyPI's facts are unavailable the page's own PEP 592 marks still leave it out.
    const yank = yankOf(files);
    if (yank.yanked && decision.verdict !== "DENIED") {
      versions.set(version, {
        allowed: false,
        decision: {
          ...decision,
          verdict: "DENIED",
          reason: `${name}==${version} was yanked upstream${
            yank.reason ? `: ${untrustedText(yank.reason, MAX_SUMMARY)}` : ""
          }`,
        },
      });
    } else versions.set(version, { allowed: decision.verdict !== "DENIED", decision });
  }
  const kept = page.files.filter((f) => versions.get(fileVersions.get(f.filename)!)?.allowed);
  const keptVersions = new Set(kept.map((f) => fileVersions.get(f.filename)!));
  const decidedPage: ProjectPage = {
    ...page,
    files: kept,
    ...(page.versions ? { versions: page.versions.filter((v) => keptVersions.has(v)) } : {}),
  };
  return {
    page: decidedPage,
    versions,
    fileVersions,
    denied: kept.length ? null : wholeDenial(name, page, snapshot, facts, versions, now),
    until,
  };
}

/** Why nothing of the project stays: the version-less decision, else the newest version's. */
function wholeDenial(
  name: string,
  page: ProjectPage,
  snapshot: RegistrySnapshot,
  facts: ProjectFacts,
  versions: ReadonlyMap<string, VersionDecision>,
  now: Date,
): ProjectDenial {
  const projectDecision = evaluate({ name, version: null }, snapshot, facts, now);
  if (projectDecision.verdict === "DENIED") return projectDenialOf(projectDecision);
  const decided = [...versions.values()];
  const newest = decided.at(-1);
  if (!newest) {
    return {
      reason: page.files.length
        ? `no file of ${name} names a version the policy can decide`
        : `${name} has no files upstream`,
      decision: projectDecision,
      status: null,
    };
  }
  return {
    reason: `every release of ${name} is denied; the last listed: ${newest.decision.reason}`,
    decision: newest.decision,
    status: null,
  };
}
