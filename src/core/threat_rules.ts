/**
 * The supply-chain rules of SPEC §17.2, one function each: a malicious
 * advisory, a yanked release, a name or release PyPI does not know, a
 * look-alike of a popular project, a project younger than the policy's
 * minimum age. Each records its {@link Threat} and returns a denial, or null
 * to let the next rule decide.
 *
 * @module
 */
import { releaseAgeDays } from "./release_age.ts";
import { THREAT_DETAILS } from "./reasons.ts";
import { advisoryId } from "./untrusted.ts";
import type { Decision } from "./types.ts";
import type { VerdictContext } from "./verdict_context.ts";

/** Default of `policies.min_project_age_days`. */
export const DEFAULT_MIN_PROJECT_AGE_DAYS = 14;
/** An established project: first released more than this many days ago … */
export const ESTABLISHED_AFTER_DAYS = 365;
/** … with at least this many releases. */
export const ESTABLISHED_RELEASES = 3;
/** How many "did you mean" names a missing project gets. */
export const SUGGESTIONS = 3;

/**
 * A malicious-package advisory affecting the request (any version for a
 * version-less one): denied whatever the registry, threshold or exceptions say.
 */
export function maliciousRule(ctx: VerdictContext): Decision | null {
  const found = (ctx.osv?.vulnerabilities ?? []).filter((v) => v.malicious);
  if (!found.length) return null;
  for (const v of found) {
    // Ids and summaries are upstream text: cleaned here too, whatever the adapter did.
    const id = advisoryId(v.aliases.find((a) => a.startsWith("MAL-")) ?? v.id);
    ctx.threats.push({ kind: "malicious", id, detail: THREAT_DETAILS.malicious(id, v.summary) });
  }
  ctx.reason.threat = ctx.threats[0];
  return ctx.deny("DENIAL_MALICIOUS");
}

/** A release PyPI marks yanked (PEP 592). */
export function yankedRule(ctx: VerdictContext): Decision | null {
  if (!ctx.index?.yanked || ctx.request.version === null) return null;
  const threat = {
    kind: "yanked" as const,
    detail: THREAT_DETAILS.yanked(ctx.request.version, ctx.index.yanked_reason ?? null),
  };
  ctx.threats.push(threat);
  ctx.reason.threat = threat;
  return ctx.deny("DENIAL_YANKED");
}

/**
 * A project PyPI answered 404 for (with the nearest popular names), or a
 * release the project does not have. Unreachable PyPI is not this rule's.
 */
export function notFoundRule(ctx: VerdictContext): Decision | null {
  const missing = ctx.index?.not_found;
  if (!missing) return null;
  const { name, version } = ctx.request;
  const release = missing === "release" && version !== null;
  ctx.reason.notFound = release ? "release" : "project";
  const threat = release
    ? {
      kind: "not_found" as const,
      detail: THREAT_DETAILS.noRelease(version, ctx.index?.latest_version ?? null),
    }
    : (() => {
      const similar = ctx.popular.nearest(name, SUGGESTIONS);
      return {
        kind: "not_found" as const,
        detail: THREAT_DETAILS.noProject(name),
        ...(similar.length ? { similar_to: similar } : {}),
      };
    })();
  ctx.threats.push(threat);
  ctx.reason.threat = threat;
  return ctx.deny("DENIAL_NOT_FOUND");
}

/** Whether the project is old and busy enough to be a real project near a popular name. */
function established(ctx: VerdictContext): { ageDays: number; releases: number } | null {
  const ageDays = releaseAgeDays(ctx.index?.first_released_at, ctx.now);
  const releases = ctx.index?.release_count ?? 0;
  return ageDays !== null && ageDays > ESTABLISHED_AFTER_DAYS && releases >= ESTABLISHED_RELEASES
    ? { ageDays, releases }
    : null;
}

/**
 * A name one edit, an affix or look-alike characters away from a popular
 * project's: denied, or listed only (`provisional`, or an established project).
 */
export function typosquatRule(ctx: VerdictContext): Decision | null {
  const policy = ctx.policies.typosquat ?? "deny";
  if (policy === "off") return null;
  const found = ctx.popular.lookalike(ctx.request.name);
  if (!found) return null;
  const old = established(ctx);
  const threat = {
    kind: "typosquat" as const,
    detail: THREAT_DETAILS.typosquat(ctx.request.name, found, old),
    similar_to: [found.similar_to],
  };
  ctx.threats.push(threat);
  ctx.reason.threat = threat;
  return policy === "deny" && !old ? ctx.deny("DENIAL_TYPOSQUAT") : null;
}

/** A project whose first release is younger than `policies.min_project_age_days`. */
export function newProjectRule(ctx: VerdictContext): Decision | null {
  const minDays = ctx.policies.min_project_age_days ?? DEFAULT_MIN_PROJECT_AGE_DAYS;
  if (minDays <= 0) return null;
  const ageDays = releaseAgeDays(ctx.index?.first_released_at, ctx.now);
  if (ageDays === null || ageDays >= minDays) return null;
  const threat = { kind: "new_project" as const, detail: THREAT_DETAILS.newProject(ageDays) };
  ctx.threats.push(threat);
  ctx.reason.threat = threat;
  ctx.reason.minProjectDays = minDays;
  return ctx.deny("DENIAL_NEW_PROJECT");
}
