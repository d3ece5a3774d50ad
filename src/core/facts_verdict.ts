/**
 * The rules of SPEC §6.1 and §17.2 for packages the registry does not block
 * outright, composed in their order in one place ({@link factsVerdict}); each
 * rule is its own function (`threat_rules.ts`, `facts_rules.ts`). Pure:
 * facts, the popular-project index and the clock come in as values.
 *
 * @module
 */
import {
  cooldownRule,
  cveRule,
  licenceRule,
  missingDataRule,
  registryOutcome,
  youngRelease,
} from "./facts_rules.ts";
import { DAY_MS } from "./release_age.ts";
import { EMPTY_POPULAR_INDEX, type PopularIndex } from "./popular_index.ts";
import {
  maliciousRule,
  newProjectRule,
  notFoundRule,
  typosquatRule,
  yankedRule,
} from "./threat_rules.ts";
import { contextOf } from "./verdict_context.ts";
import type { Decision, EvaluationFacts, EvaluationRequest, RegistrySnapshot } from "./types.ts";

export { dataSourceOf, vulnerabilitiesInScope } from "./verdict_context.ts";
export { releaseAgeDays } from "./release_age.ts";

/**
 * Until when (ms since the epoch) {@link factsVerdict} decides the same for
 * the same request, snapshot and facts: the clock enters a decision only
 * through the UTC day (which exceptions are live) and the whole days since
 * the release's upload (the release cooldown) and the project's first upload
 * (new projects, established look-alikes).
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
  const index = facts.license?.status === "ok" ? facts.license : null;
  for (const at of [index?.released_at, index?.first_released_at]) {
    const ms = at ? Date.parse(at) : NaN;
    if (Number.isNaN(ms)) continue;
    // releaseAgeDays() counts whole days since `ms` (0 before it): the next step.
    const nextStep = t < ms ? ms + DAY_MS : ms + (Math.floor((t - ms) / DAY_MS) + 1) * DAY_MS;
    until = Math.min(until, nextStep);
  }
  return until;
}

/**
 * Decides a package the registry did not block, rule by rule in the order of
 * SPEC §17.2: a malicious advisory; CVEs; a yanked release; for packages the
 * registry does not allow, a name or release PyPI does not know, a look-alike
 * of a popular project (`popular`), a young project, then the license; the
 * missing-data policy; the release cooldown. `now` decides which exceptions
 * are live and how old a release or project is.
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
  popular: PopularIndex = EMPTY_POPULAR_INDEX,
): Decision {
  const ctx = contextOf(request, snapshot, facts, now, popular);
  const known = ctx.rule !== undefined;
  const early = maliciousRule(ctx) ?? cveRule(ctx) ?? yankedRule(ctx) ??
    (known ? null : notFoundRule(ctx) ?? typosquatRule(ctx) ?? newProjectRule(ctx));
  if (early) return early;
  const outcome = known ? registryOutcome(ctx) : licenceRule(ctx);
  if ("package" in outcome) return outcome;
  const young = youngRelease(ctx);
  return missingDataRule(ctx, outcome) ?? cooldownRule(ctx, outcome, young);
}
