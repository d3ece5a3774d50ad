/**
 * The rules of SPEC §6.1 that read upstream facts, one function each: the
 * CVE threshold, the license check for packages the registry does not know,
 * the missing-data policy and the release cooldown.
 *
 * @module
 */
import { licenseExceptions } from "./exceptions.ts";
import { licenseStanding } from "./license_policy.ts";
import { releaseAgeDays } from "./release_age.ts";
import type { Decision, Policies } from "./types.ts";
import type { Outcome, VerdictContext } from "./verdict_context.ts";

/** Vulnerabilities at or above the threshold (after exceptions) deny, also for registry packages. */
export function cveRule(ctx: VerdictContext): Decision | null {
  if (!ctx.osv) ctx.missing.push("vulnerability data was unavailable");
  const { block_on_cve, cve_threshold } = ctx.policies;
  if (!block_on_cve || ctx.maxCvss === null || ctx.maxCvss < cve_threshold) return null;
  ctx.reason.blocking = ctx.cves.filter((c) => (c.score ?? 0) >= cve_threshold).map((c) => c.id);
  return ctx.deny("DENIAL_CVE");
}

/** Which license ids of an expression an exception list accepts (ids compared case-insensitively). */
function idsIn(license: string, ids: string[]): string[] {
  const tokens = new Set(license.split(/[\s()]+/).map((t) => t.replace(/\+$/, "").toUpperCase()));
  return ids.filter((id) => tokens.has(id.toUpperCase()));
}

const isFinding = (standing: string, policies: Policies) =>
  standing === "denied" || (standing === "unknown" && policies.unknown_license_policy === "deny");

/**
 * The outcome for a package the registry allows (`ALLOWED_BY_REGISTRY`, with
 * the allowed range of a version-less constrained package).
 */
export function registryOutcome(ctx: VerdictContext): Outcome {
  const rule = ctx.rule!;
  if (rule.status === "version-constrained" && ctx.request.version === null) {
    const bounds = [
      rule.min_version && `>=${rule.min_version}`,
      rule.max_version && `<=${rule.max_version}`,
    ].filter(Boolean).join(",");
    ctx.reason.range = `; allowed versions: ${bounds}`;
  }
  return { verdict: "ALLOWED", category: null, key: "ALLOWED_BY_REGISTRY" };
}

/**
 * The license check of a package the registry does not know: a denial, or
 * the provisional outcome naming how its license fares (exceptions applied).
 */
export function licenceRule(ctx: VerdictContext): Decision | Outcome {
  const facts = ctx.index;
  if (!facts) {
    ctx.missing.push("license data was unavailable");
    return { verdict: "PROVISIONALLY_ALLOWED", category: null, key: "PROVISIONAL_NO_LICENSE_DATA" };
  }
  const policies = ctx.policies;
  let standing = licenseStanding(facts.license, policies);
  if (isFinding(standing, policies)) {
    const accepted = licenseExceptions(ctx.exceptions);
    const ids = standing === "unknown"
      ? accepted.ids.filter((id) => id.toUpperCase() === "UNKNOWN")
      : idsIn(facts.license, accepted.ids);
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
      : licenseStanding(facts.license, relaxed);
    ctx.reason.license = facts.license;
    if (isFinding(after, policies)) {
      return ctx.deny(standing === "denied" ? "DENIAL_LICENSE" : "DENIAL_LICENSE_UNKNOWN");
    }
    ctx.applied.push(...accepted.appliedFor(ids));
    standing = after;
  }
  ctx.reason.license = facts.license;
  ctx.reason.licenseStanding = standing === "denied" ? "unlisted" : standing;
  return { verdict: "PROVISIONALLY_ALLOWED", category: null, key: "PROVISIONAL_UNKNOWN_PACKAGE" };
}

/**
 * The release's age in days when the cooldown applies and it is younger than
 * `min_release_age_days`; notes the upload time as missing data when unknown.
 */
export function youngRelease(ctx: VerdictContext): number | null {
  const wait = ctx.policies.min_release_age_days;
  if (wait <= 0) return null;
  const ageDays = releaseAgeDays(ctx.index?.released_at, ctx.now);
  if (ageDays === null) {
    if (!ctx.missing.some((m) => m.startsWith("license data"))) {
      ctx.missing.push(
        ctx.index
          ? "the release's upload time was unknown"
          : "release data from the package index was unavailable",
      );
    }
    return null;
  }
  return ageDays < wait ? ageDays : null;
}

/** `on_missing_data`: every note in `missing` is data this decision needed. */
export function missingDataRule(ctx: VerdictContext, outcome: Outcome): Decision | null {
  if (!ctx.missing.length) return null;
  const policy = ctx.policies.on_missing_data;
  if (policy === "deny") return ctx.deny("DENIAL_DATA_UNAVAILABLE");
  if (policy === "provisional" && outcome.verdict === "ALLOWED") {
    return ctx.decide({
      verdict: "PROVISIONALLY_ALLOWED",
      category: null,
      key: "PROVISIONAL_MISSING_DATA",
    });
  }
  return null;
}

/** The release cooldown: a young release of an allowed package is only provisionally allowed. */
export function cooldownRule(
  ctx: VerdictContext,
  outcome: Outcome,
  ageDays: number | null,
): Decision {
  if (ageDays === null) return ctx.decide(outcome);
  ctx.reason.ageDays = ageDays;
  ctx.reason.waitDays = ctx.policies.min_release_age_days;
  if (outcome.verdict !== "ALLOWED") return ctx.decide(outcome);
  return ctx.decide({
    verdict: "PROVISIONALLY_ALLOWED",
    category: null,
    key: "PROVISIONAL_RELEASE_AGE",
  });
}
