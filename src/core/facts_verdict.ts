/**
 * Rules 2–4 of SPEC §6.1 and issue 14, for packages the registry does not
 * block outright: the CVE check (after exceptions), the license check for
 * packages the registry does not know, the missing-data policy, the release
 * cooldown, then the outcome. Pure: facts and the clock come in as values.
 *
 * @module
 */
import { isAffected } from "./affected.ts";
import { exceptionsFor, licenseExceptions, waiveVulnerabilities } from "./exceptions.ts";
import { licenseStanding } from "./license_policy.ts";
import { type ReasonFacts, type ReasonKey, REASONS } from "./reasons.ts";
import { subjectOf, whyOf } from "./registry_verdict.ts";
import type {
  AppliedException,
  DataSource,
  Decision,
  DecisionData,
  DenialCategory,
  EvaluationFacts,
  EvaluationRequest,
  LicenseFacts,
  Policies,
  RegistrySnapshot,
  ReportedCve,
  Verdict,
  Vulnerability,
  VulnerabilityFacts,
} from "./types.ts";

const DAY_MS = 86_400_000;

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

/** The data status of one lookup's answer. */
export function dataSourceOf(facts: VulnerabilityFacts | LicenseFacts | null): DataSource {
  if (facts === null) return { status: "skipped", fetched_at: null };
  if (facts.status !== "ok") return { status: "unavailable", fetched_at: null };
  return { status: facts.cached ? "cached" : "fresh", fetched_at: facts.fetched_at ?? null };
}

/** Whole days between an upload time and now; null when the time is unknown or unreadable. */
export function releaseAgeDays(releasedAt: string | null | undefined, now: Date): number | null {
  if (!releasedAt) return null;
  const ms = Date.parse(releasedAt);
  return Number.isNaN(ms) ? null : Math.max(0, Math.floor((now.getTime() - ms) / DAY_MS));
}

/**
 * Until when (ms since the epoch) {@link factsVerdict} decides the same for
 * the same request, snapshot and facts: the clock enters a decision only
 * through the UTC day (which exceptions are live) and the whole days since
 * the release's upload (the release cooldown and its reason text).
 *
 * @example
 * ```ts
 * import { decisionStableUntil } from "./facts_verdict.ts";
 * const now = new Date("2026-11-24T20:00:00Z");
 * const license = { status: "ok" as const, license: "MIT", license_raw: "MIT", latest_version: "1.0", released_at: "2026-11-20T21:30:00Z" };
 * const facts = { vulnerabilities: null, license };
 * new Date(decisionStableUntil(facts, now)).toISOString(); // "2026-11-24T21:30:00.000Z"
 * ```
 */
export function decisionStableUntil(facts: EvaluationFacts, now: Date): number {
  const t = now.getTime();
  let until = (Math.floor(t / DAY_MS) + 1) * DAY_MS; // the next UTC midnight
  const released = facts.license?.status === "ok" ? facts.license.released_at : null;
  const ms = released ? Date.parse(released) : NaN;
  if (!Number.isNaN(ms)) {
    // releaseAgeDays() counts whole days since `ms` (0 before it): the next step.
    const nextStep = t < ms ? ms + DAY_MS : ms + (Math.floor((t - ms) / DAY_MS) + 1) * DAY_MS;
    until = Math.min(until, nextStep);
  }
  return until;
}

/** Which license ids of an expression an exception list accepts (ids compared case-insensitively). */
function idsIn(license: string, ids: string[]): string[] {
  const tokens = new Set(license.split(/[\s()]+/).map((t) => t.replace(/\+$/, "").toUpperCase()));
  return ids.filter((id) => tokens.has(id.toUpperCase()));
}

type Outcome = { verdict: Verdict; category: DenialCategory | null; key: ReasonKey };

/**
 * Decides a package the registry did not block: CVEs, license (for unknown
 * packages), missing data, release age, outcome. `now` decides which
 * exceptions are live and how old a release is.
 *
 * @example
 * ```ts
 * import { factsVerdict } from "./facts_verdict.ts";
 * import type { RegistrySnapshot } from "./types.ts";
 * declare const snapshot: RegistrySnapshot; // requests is preferred in it
 * const d = factsVerdict({ name: "requests", version: null }, snapshot, {
 *   vulnerabilities: { status: "ok", vulnerabilities: [] },
 *   license: { status: "unavailable", detail: "down" },
 * }, new Date());
 * d.verdict; // "ALLOWED"
 * ```
 */
export function factsVerdict(
  request: EvaluationRequest,
  snapshot: RegistrySnapshot,
  facts: EvaluationFacts,
  now: Date,
): Decision {
  const policies = snapshot.registry.policies;
  const rule = snapshot.byName.get(request.name);
  const known = rule !== undefined;
  const licenseFacts = facts.license?.status === "ok" ? facts.license : null;
  const latest = licenseFacts?.latest_version ?? null;
  const vulnFacts = facts.vulnerabilities?.status === "ok" ? facts.vulnerabilities : null;
  const exceptions = exceptionsFor(
    snapshot.registry.exceptions ?? [],
    request.name,
    request.version ?? latest,
    now,
  );
  const inScope = vulnFacts
    ? vulnerabilitiesInScope(vulnFacts.vulnerabilities, request.version, policies, latest)
    : [];
  const waived = waiveVulnerabilities(inScope, exceptions);
  const cves = toReported(waived.kept);
  const applied: AppliedException[] = [...waived.applied];
  const data: DecisionData = {
    vulnerabilities: dataSourceOf(facts.vulnerabilities),
    license: dataSourceOf(facts.license),
  };
  const maxCvss = maxScore(cves);
  const reason: ReasonFacts = {
    subject: subjectOf(request),
    name: request.name,
    why: whyOf(rule),
    status: rule?.status,
    threshold: policies.cve_threshold,
    maxCvss,
    belowThreshold: cves.length,
    missing: [],
  };
  const decide = (outcome: Outcome): Decision => ({
    package: request.name,
    version: request.version,
    verdict: outcome.verdict,
    reason: REASONS[outcome.key](reason),
    denial_category: outcome.category,
    registry_status: rule?.status ?? null,
    replacement: rule?.replacement ?? null,
    license: known ? null : licenseFacts?.license ?? null,
    license_raw: known ? null : licenseFacts?.license_raw ?? null,
    latest_version: latest,
    cves,
    max_cvss: maxCvss,
    data,
    exceptions_applied: applied,
  });
  const deny = (category: DenialCategory): Decision =>
    decide({ verdict: "DENIED", category, key: category });

  // 2. CVE check, also for registry-allowed packages (waived findings removed).
  const missing = reason.missing!;
  if (!vulnFacts) missing.push("vulnerability data was unavailable");
  if (policies.block_on_cve && maxCvss !== null && maxCvss >= policies.cve_threshold) {
    reason.blocking = cves.filter((c) => (c.score ?? 0) >= policies.cve_threshold).map((c) => c.id);
    return deny("DENIAL_CVE");
  }

  // 3. License check, only for packages the registry does not know.
  let outcome: Outcome;
  if (!known) {
    if (!licenseFacts) {
      missing.push("license data was unavailable");
      outcome = {
        verdict: "PROVISIONALLY_ALLOWED",
        category: null,
        key: "PROVISIONAL_NO_LICENSE_DATA",
      };
    } else {
      let standing = licenseStanding(licenseFacts.license, policies);
      const finding = standing === "denied" ||
        (standing === "unknown" && policies.unknown_license_policy === "deny");
      if (finding) {
        const accepted = licenseExceptions(exceptions);
        const ids = standing === "unknown"
          ? accepted.ids.filter((id) => id.toUpperCase() === "UNKNOWN")
          : idsIn(licenseFacts.license, accepted.ids);
        const relaxed: Policies = {
          ...policies,
          licenses: {
            allowed: [...policies.licenses.allowed, ...ids],
            denied: policies.licenses.denied.filter((d) =>
              !ids.some((id) => id.toUpperCase() === d.toUpperCase())
            ),
          },
        };
        const after = standing === "unknown"
          ? (ids.length ? "allowed" : "unknown")
          : licenseStanding(licenseFacts.license, relaxed);
        const stillFinding = after === "denied" ||
          (after === "unknown" && policies.unknown_license_policy === "deny");
        if (stillFinding) {
          reason.license = licenseFacts.license;
          return deny(standing === "denied" ? "DENIAL_LICENSE" : "DENIAL_LICENSE_UNKNOWN");
        }
        applied.push(...accepted.appliedFor(ids));
        standing = after;
      }
      reason.license = licenseFacts.license;
      reason.licenseStanding = standing === "denied" ? "unlisted" : standing;
      outcome = {
        verdict: "PROVISIONALLY_ALLOWED",
        category: null,
        key: "PROVISIONAL_UNKNOWN_PACKAGE",
      };
    }
  } else {
    if (rule.status === "version-constrained" && request.version === null) {
      const bounds = [
        rule.min_version && `>=${rule.min_version}`,
        rule.max_version && `<=${rule.max_version}`,
      ].filter(Boolean).join(",");
      reason.range = `; allowed versions: ${bounds}`;
    }
    outcome = { verdict: "ALLOWED", category: null, key: "ALLOWED_BY_REGISTRY" };
  }

  // Release cooldown: the upload time of the release (the latest one without a version).
  let young: { ageDays: number } | null = null;
  if (policies.min_release_age_days > 0) {
    const ageDays = releaseAgeDays(licenseFacts?.released_at, now);
    if (ageDays === null) {
      if (!missing.some((m) => m.startsWith("license data"))) {
        missing.push(
          licenseFacts
            ? "the release's upload time was unknown"
            : "release data from the package index was unavailable",
        );
      }
    } else if (ageDays < policies.min_release_age_days) young = { ageDays };
  }

  // The missing-data policy: every note in `missing` is data this decision needed.
  if (missing.length && policies.on_missing_data === "deny") {
    return deny("DENIAL_DATA_UNAVAILABLE");
  }
  if (
    missing.length && policies.on_missing_data === "provisional" && outcome.verdict === "ALLOWED"
  ) {
    return decide({
      verdict: "PROVISIONALLY_ALLOWED",
      category: null,
      key: "PROVISIONAL_MISSING_DATA",
    });
  }

  if (young) {
    reason.ageDays = young.ageDays;
    reason.waitDays = policies.min_release_age_days;
    if (outcome.verdict === "ALLOWED") {
      return decide({
        verdict: "PROVISIONALLY_ALLOWED",
        category: null,
        key: "PROVISIONAL_RELEASE_AGE",
      });
    }
  }
  return decide(outcome);
}
