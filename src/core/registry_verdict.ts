/**
 * Rule 1 of SPEC §6.1, the registry hard blocks: decided from the request
 * and the registry alone, before any lookup. The evaluation service asks
 * this first and skips the upstream lookups when it answers.
 *
 * @module
 */
import { MAX_RULE_REASON, quoted } from "./untrusted.ts";
import { compare } from "@renovatebot/pep440";
import { type ReasonFacts, REASONS } from "./reasons.ts";
import type {
  Decision,
  DecisionData,
  DenialCategory,
  EvaluationRequest,
  PackageRule,
  RegistrySnapshot,
} from "./types.ts";

/** `name` or `name==version`. */
export function subjectOf(request: EvaluationRequest): string {
  return request.version ? `${request.name}==${request.version}` : request.name;
}

/** `: <rule reason>` or empty. */
export function whyOf(rule: PackageRule | undefined): string {
  // Quoted as data with its source: a reason may have started as someone's rationale.
  return rule?.reason?.trim() ? ` (registry reason: ${quoted(rule.reason, MAX_RULE_REASON)})` : "";
}

function outsideConstraint(rule: PackageRule, version: string): string | null {
  if (rule.min_version && compare(version, rule.min_version) < 0) {
    return `version ${version} is below the minimum ${rule.min_version}`;
  }
  if (rule.max_version && compare(version, rule.max_version) > 0) {
    return `version ${version} is above the maximum ${rule.max_version}`;
  }
  return null;
}

/** Data of a decision made without lookups. */
export const SKIPPED_DATA: DecisionData = Object.freeze({
  vulnerabilities: Object.freeze({ status: "skipped", fetched_at: null }),
  license: Object.freeze({ status: "skipped", fetched_at: null }),
}) as DecisionData;

function hardBlock(rule: PackageRule, request: EvaluationRequest): {
  category: DenialCategory;
  outside?: string;
} | null {
  if (rule.status === "banned") return { category: "DENIAL_BANNED" };
  if (rule.status === "deprecated") return { category: "DENIAL_DEPRECATED" };
  if (rule.status === "version-constrained" && request.version !== null) {
    const outside = outsideConstraint(rule, request.version);
    if (outside) return { category: "DENIAL_VERSION_CONSTRAINT", outside };
  }
  return null;
}

/**
 * The registry's own verdict: a denial for a banned or deprecated package or
 * a version outside its constraint, with both lookups `skipped`; null when
 * the decision needs upstream facts ({@link factsVerdict}).
 *
 * @example
 * ```ts
 * import { registryVerdict } from "./registry_verdict.ts";
 * import type { RegistrySnapshot } from "./types.ts";
 * declare const snapshot: RegistrySnapshot; // pycrypto is banned in it
 * registryVerdict({ name: "pycrypto", version: null }, snapshot)?.verdict; // "DENIED"
 * ```
 */
export function registryVerdict(
  request: EvaluationRequest,
  snapshot: RegistrySnapshot,
): Decision | null {
  const rule = snapshot.byName.get(request.name);
  if (!rule) return null;
  const block = hardBlock(rule, request);
  if (!block) return null;
  const facts: ReasonFacts = {
    subject: subjectOf(request),
    name: request.name,
    why: whyOf(rule),
    replacement: rule.replacement,
    outside: block.outside,
  };
  return {
    package: request.name,
    version: request.version,
    verdict: "DENIED",
    reason: REASONS[block.category](facts),
    denial_category: block.category,
    registry_status: rule.status,
    replacement: rule.replacement ?? null,
    license: null,
    license_raw: null,
    latest_version: null,
    cves: [],
    max_cvss: null,
    data: SKIPPED_DATA,
    exceptions_applied: [],
    threats: [],
  };
}
