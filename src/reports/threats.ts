/**
 * Supply-chain threats in a report window (issue #26): denials by threat
 * kind (malicious, not found, typosquat, new project, yanked) and the most
 * recent of them, for the security report, its dashboard page and the
 * package page.
 *
 * @module
 */
import { THREAT_KINDS, type ThreatKind } from "../core/types.ts";
import type { AuditCategory, AuditFilter, AuditReader, AuditRow } from "../store/types.ts";

/** The denial category each threat kind denies with. */
export const THREAT_CATEGORIES: Readonly<Record<ThreatKind, AuditCategory>> = {
  malicious: "DENIAL_MALICIOUS",
  not_found: "DENIAL_NOT_FOUND",
  typosquat: "DENIAL_TYPOSQUAT",
  new_project: "DENIAL_NEW_PROJECT",
  yanked: "DENIAL_YANKED",
};

/** Threat denials of a window. */
export interface ThreatSummary {
  /** Denials per threat kind (every kind present, 0 when none). */
  by_kind: Record<ThreatKind, number>;
  /** The most recent threat denials, newest first (their `threats` say what was found). */
  recent: AuditRow[];
}

/**
 * Counts and lists the threat denials of `filter` (a report window,
 * optionally one package).
 *
 * @example
 * ```ts
 * import { threatSummary } from "./threats.ts";
 * import type { AuditReader } from "../store/types.ts";
 * declare const audit: AuditReader;
 * const summary = await threatSummary(audit, { since: "2026-11-01T00:00:00Z" }, 10);
 * summary.by_kind.typosquat; // denials as a look-alike of a popular project
 * ```
 */
export async function threatSummary(
  audit: AuditReader,
  filter: AuditFilter,
  limit: number,
): Promise<ThreatSummary> {
  const categories = Object.values(THREAT_CATEGORIES);
  const denials = { ...filter, verdicts: ["DENIED" as const], categories };
  const [groups, recent] = await Promise.all([
    audit.group(denials, ["category"]),
    audit.list(denials, limit),
  ]);
  const counts = new Map(groups.map((g) => [g.keys.category, g.count]));
  const by_kind = Object.fromEntries(
    THREAT_KINDS.map((kind) => [kind, counts.get(THREAT_CATEGORIES[kind]) ?? 0]),
  ) as Record<ThreatKind, number>;
  return { by_kind, recent };
}
