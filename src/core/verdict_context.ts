/**
 * What every rule of {@link factsVerdict} reads: the request, the registry
 * rule, the usable facts, the findings gathered so far, and one way to turn
 * an outcome into a {@link Decision}. Built once per decision; rules add to
 * `reason`, `applied`, `missing` and `threats` and return a decision or null.
 *
 * @module
 */
import { exceptionsFor, waiveVulnerabilities } from "./exceptions.ts";
import { isAffected } from "./affected.ts";
import { type ReasonFacts, type ReasonKey, REASONS, withThreatNotes } from "./reasons.ts";
import { subjectOf, whyOf } from "./registry_verdict.ts";
import type { PopularIndex } from "./popular_index.ts";
import type {
  AppliedException,
  DataSource,
  Decision,
  DecisionData,
  DenialCategory,
  EvaluationFacts,
  EvaluationRequest,
  LicenseFacts,
  PackageRule,
  Policies,
  RegistryException,
  RegistrySnapshot,
  ReportedCve,
  Threat,
  Verdict,
  Vulnerability,
  VulnerabilityFacts,
} from "./types.ts";

/** A verdict, its denial category and the reason key that words it. */
export type Outcome = { verdict: Verdict; category: DenialCategory | null; key: ReasonKey };

/** The license facts of an `ok` answer. */
export type IndexFacts = Extract<LicenseFacts, { status: "ok" }>;

/** The state one decision is built in (see the module doc). */
export interface VerdictContext {
  request: EvaluationRequest;
  policies: Policies;
  /** The registry's rule for the package; undefined when the registry does not know it. */
  rule: PackageRule | undefined;
  /** PyPI facts when the lookup answered. */
  index: IndexFacts | null;
  /** OSV facts when the lookup answered. */
  osv: Extract<VulnerabilityFacts, { status: "ok" }> | null;
  /** Live exceptions for the package (at the requested or latest version). */
  exceptions: RegistryException[];
  /** Reported (non-malicious) vulnerabilities after exceptions. */
  cves: ReportedCve[];
  maxCvss: number | null;
  applied: AppliedException[];
  threats: Threat[];
  /** Data the decision needed but did not have. */
  missing: string[];
  reason: ReasonFacts;
  popular: PopularIndex;
  now: Date;
  /** The decision for `outcome` with everything gathered so far. */
  decide(outcome: Outcome): Decision;
  /** A denial worded by its category's reason. */
  deny(category: DenialCategory): Decision;
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

/** The data status of one lookup's answer. */
export function dataSourceOf(facts: VulnerabilityFacts | LicenseFacts | null): DataSource {
  if (facts === null) return { status: "skipped", fetched_at: null };
  if (facts.status !== "ok") return { status: "unavailable", fetched_at: null };
  return { status: facts.cached ? "cached" : "fresh", fetched_at: facts.fetched_at ?? null };
}

/** The decision for `outcome` with everything `ctx` gathered; `data` says what the lookups gave. */
function decisionOf(ctx: VerdictContext, outcome: Outcome, data: DecisionData): Decision {
  const { request, rule, index } = ctx;
  const known = rule !== undefined;
  return {
    package: request.name,
    version: request.version,
    verdict: outcome.verdict,
    reason: withThreatNotes(
      REASONS[outcome.key]({ ...ctx.reason, missing: ctx.missing }),
      outcome.verdict,
      ctx.threats,
    ),
    denial_category: outcome.category,
    registry_status: rule?.status ?? null,
    replacement: rule?.replacement ?? null,
    license: known ? null : index?.license ?? null,
    license_raw: known ? null : index?.license_raw ?? null,
    latest_version: index?.latest_version ?? null,
    cves: ctx.cves,
    max_cvss: ctx.maxCvss,
    data,
    exceptions_applied: ctx.applied,
    threats: ctx.threats,
  };
}

/** Builds the context of one decision (malicious advisories are kept out of `cves`). */
export function contextOf(
  request: EvaluationRequest,
  snapshot: RegistrySnapshot,
  facts: EvaluationFacts,
  now: Date,
  popular: PopularIndex,
): VerdictContext {
  const policies = snapshot.registry.policies;
  const rule = snapshot.byName.get(request.name);
  const index = facts.license?.status === "ok" ? facts.license : null;
  const osv = facts.vulnerabilities?.status === "ok" ? facts.vulnerabilities : null;
  const latest = index?.latest_version ?? null;
  const version = request.version ?? latest;
  const exceptions = exceptionsFor(snapshot.registry.exceptions ?? [], request.name, version, now);
  const scored = (osv?.vulnerabilities ?? []).filter((v) => !v.malicious);
  const inScope = vulnerabilitiesInScope(scored, request.version, policies, latest);
  const waived = waiveVulnerabilities(inScope, exceptions);
  const cves = toReported(waived.kept);
  const maxCvss = maxScore(cves);
  const data = {
    vulnerabilities: dataSourceOf(facts.vulnerabilities),
    license: dataSourceOf(facts.license),
  };
  const ctx: VerdictContext = {
    request,
    policies,
    rule,
    index,
    osv,
    exceptions,
    cves,
    maxCvss,
    applied: [...waived.applied],
    threats: [],
    missing: [],
    reason: {
      subject: subjectOf(request),
      name: request.name,
      why: whyOf(rule),
      status: rule?.status,
      threshold: policies.cve_threshold,
      maxCvss,
      belowThreshold: cves.length,
      latest: latest ?? undefined,
    },
    popular,
    now,
    decide: (outcome) => decisionOf(ctx, outcome, data),
    deny: (category) => ctx.decide({ verdict: "DENIED", category, key: category }),
  };
  return ctx;
}
