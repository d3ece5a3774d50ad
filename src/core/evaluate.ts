/**
 * The evaluation rules of SPEC §6.1 as one pure function over plain data:
 * registry hard blocks, then the CVE check, then the license check for
 * packages the registry does not know, then the outcome.
 *
 * @module
 */
import { compare } from "@renovatebot/pep440";
import { isAffected } from "./affected.ts";
import { licenseStanding } from "./license_policy.ts";
import type {
  Decision,
  EvaluationFacts,
  EvaluationRequest,
  PackageRule,
  Policies,
  RegistrySnapshot,
  ReportedCve,
  Vulnerability,
} from "./types.ts";

type Common = Omit<Decision, "verdict" | "reason" | "denial_category">;

function outsideConstraint(rule: PackageRule, version: string): string | null {
  if (rule.min_version && compare(version, rule.min_version) < 0) {
    return `version ${version} is below the minimum ${rule.min_version}`;
  }
  if (rule.max_version && compare(version, rule.max_version) > 0) {
    return `version ${version} is above the maximum ${rule.max_version}`;
  }
  return null;
}

/**
 * The vulnerabilities that count for this evaluation: all of them for a
 * versioned query (the lookup already filtered by version); for a
 * version-less one, under scope `latest`, only those affecting the latest
 * release (all of them when the latest release is unknown).
 */
export function vulnerabilitiesInScope(
  vulns: Vulnerability[],
  version: string | null,
  policies: Policies,
  latestVersion: string | null,
): Vulnerability[] {
  if (version !== null || policies.unversioned_cve_scope === "any" || latestVersion === null) {
    return vulns;
  }
  return vulns.filter((v) => isAffected(v.affected, latestVersion));
}

function toReported(vulns: Vulnerability[]): ReportedCve[] {
  return [...vulns]
    .sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.id.localeCompare(b.id))
    .map((v) => ({
      id: v.id,
      score: v.score,
      aliases: v.aliases,
      ...(v.summary ? { summary: v.summary } : {}),
    }));
}

function maxScore(cves: ReportedCve[]): number | null {
  const scores = cves.map((c) => c.score).filter((s): s is number => s !== null);
  return scores.length ? Math.max(...scores) : null;
}

function describeVersion(request: EvaluationRequest): string {
  return request.version ? `${request.name}==${request.version}` : request.name;
}

/**
 * Decides a verdict for one package.
 *
 * @example
 * ```ts
 * const d = evaluate({ name: "pycrypto", version: null }, snapshot, { vulnerabilities: null, license: null });
 * d.verdict; // "DENIED"
 * ```
 */
export function evaluate(
  request: EvaluationRequest,
  snapshot: RegistrySnapshot,
  facts: EvaluationFacts,
): Decision {
  const policies = snapshot.registry.policies;
  const rule = snapshot.byName.get(request.name);
  const licenseFacts = facts.license?.status === "ok" ? facts.license : null;
  const latest = licenseFacts?.latest_version ?? null;
  const vulnFacts = facts.vulnerabilities?.status === "ok" ? facts.vulnerabilities : null;
  const cves = vulnFacts
    ? toReported(
      vulnerabilitiesInScope(vulnFacts.vulnerabilities, request.version, policies, latest),
    )
    : [];
  const known = rule !== undefined;
  const base: Common = {
    package: request.name,
    version: request.version,
    registry_status: rule?.status ?? null,
    replacement: rule?.replacement ?? null,
    license: known ? null : licenseFacts?.license ?? null,
    license_raw: known ? null : licenseFacts?.license_raw ?? null,
    latest_version: latest,
    cves,
    max_cvss: maxScore(cves),
  };
  const subject = describeVersion(request);
  const why = rule?.reason ? `: ${rule.reason}` : "";

  // 1. Registry hard blocks.
  if (rule?.status === "banned") {
    return {
      ...base,
      verdict: "DENIED",
      denial_category: "DENIAL_BANNED",
      reason: `${request.name} is banned by the registry${why}` +
        (rule.replacement ? `; use ${rule.replacement} instead` : ""),
    };
  }
  if (rule?.status === "deprecated") {
    return {
      ...base,
      verdict: "DENIED",
      denial_category: "DENIAL_DEPRECATED",
      reason: `${request.name} is deprecated${why}` +
        (rule.replacement ? `; use ${rule.replacement} instead` : ""),
    };
  }
  if (rule?.status === "version-constrained" && request.version !== null) {
    const outside = outsideConstraint(rule, request.version);
    if (outside) {
      return {
        ...base,
        verdict: "DENIED",
        denial_category: "DENIAL_VERSION_CONSTRAINT",
        reason: `${subject} is outside the allowed range (${outside})${why}`,
      };
    }
  }

  // 2. CVE check, also for registry-allowed packages.
  const missing: string[] = [];
  if (!vulnFacts) missing.push("vulnerability data was unavailable");
  if (
    policies.block_on_cve && base.max_cvss !== null && base.max_cvss >= policies.cve_threshold
  ) {
    const top = cves.filter((c) => (c.score ?? 0) >= policies.cve_threshold).map((c) => c.id);
    return {
      ...base,
      verdict: "DENIED",
      denial_category: "DENIAL_CVE",
      reason: `${subject} has vulnerabilities with CVSS ${base.max_cvss} at or above the ` +
        `threshold ${policies.cve_threshold}: ${top.join(", ")}`,
    };
  }

  // 3. License check, only for packages the registry does not know.
  if (!known) {
    if (!licenseFacts) {
      missing.push("license data was unavailable");
      return {
        ...base,
        verdict: "PROVISIONALLY_ALLOWED",
        denial_category: null,
        reason: `${subject} is not in the registry; ${missing.join(" and ")}, ` +
          `so it is provisionally allowed pending review`,
      };
    }
    const standing = licenseStanding(licenseFacts.license, policies);
    if (standing === "denied") {
      return {
        ...base,
        verdict: "DENIED",
        denial_category: "DENIAL_LICENSE",
        reason: `${subject} is licensed ${licenseFacts.license}, which the registry denies`,
      };
    }
    if (standing === "unknown" && policies.unknown_license_policy === "deny") {
      return {
        ...base,
        verdict: "DENIED",
        denial_category: "DENIAL_LICENSE_UNKNOWN",
        reason: `${subject} has no recognisable license and the policy denies unknown licenses`,
      };
    }
    const licenseNote = standing === "allowed"
      ? `its license ${licenseFacts.license} is allowed`
      : standing === "unknown"
      ? "its license is unknown"
      : `its license ${licenseFacts.license} is in neither license list`;
    const dataNote = missing.length ? `; ${missing.join(" and ")}` : "";
    const cveNote = cves.length ? `; ${cves.length} known vulnerabilities below the threshold` : "";
    return {
      ...base,
      verdict: "PROVISIONALLY_ALLOWED",
      denial_category: null,
      reason: `${subject} is not in the registry; ${licenseNote}${cveNote}${dataNote}; ` +
        `provisionally allowed pending review`,
    };
  }

  // 4. Outcome for registry-allowed packages.
  const range = rule.status === "version-constrained" && request.version === null
    ? `; allowed versions: ${
      [rule.min_version && `>=${rule.min_version}`, rule.max_version && `<=${rule.max_version}`]
        .filter(Boolean).join(",")
    }`
    : "";
  const dataNote = missing.length ? ` (${missing.join(" and ")})` : "";
  const cveNote = cves.length
    ? `; ${cves.length} known vulnerabilities below the threshold ${policies.cve_threshold}`
    : "";
  return {
    ...base,
    verdict: "ALLOWED",
    denial_category: null,
    reason: `${subject} is ${rule.status} in the registry${why}${range}${cveNote}${dataNote}`,
  };
}
