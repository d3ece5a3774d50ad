/**
 * The pending queue of `GET /registry/pending` (SPEC §7, §15.5, §15.18):
 * explicit rows from approval requests and implicit rows from the audit
 * log, one row per package with its highest-signal reason, packages in the
 * live registry left out.
 *
 * @module
 */
import type { ApprovalRequest, AuditGroup } from "../store/types.ts";

/** Reasons, highest signal first; the wire contract owns the list. */
export { PENDING_REASONS, type PendingReason } from "../api/enums.ts";
import { PENDING_REASONS, type PendingReason } from "../api/enums.ts";

/** One row of the pending queue. */
export interface PendingItem {
  package: string;
  reason: PendingReason;
  /** Pending requests for `requested`; audit rows in the window otherwise. */
  count: number;
  projects: string[];
  last_seen: string;
  /** The most recent rationale (`requested` only). */
  rationale?: string;
}

/** Denials in the window that make a package `repeatedly-denied`. */
export const REPEATED_DENIALS = 3;

interface AuditSummary {
  count: number;
  projects: Set<string>;
  last: string;
  provisional: number;
  denied: number;
  onlyCheckAllowed: boolean;
}

function summarise(groups: readonly AuditGroup[]): Map<string, AuditSummary> {
  const out = new Map<string, AuditSummary>();
  for (const group of groups) {
    const name = group.keys.package;
    if (!name) continue;
    const s = out.get(name) ??
      {
        count: 0,
        projects: new Set(),
        last: "",
        provisional: 0,
        denied: 0,
        onlyCheckAllowed: true,
      };
    s.count += group.count;
    for (const p of group.projects) s.projects.add(p);
    if (group.last_ts > s.last) s.last = group.last_ts;
    if (group.keys.verdict === "PROVISIONALLY_ALLOWED") s.provisional += group.count;
    if (group.keys.verdict === "DENIED") s.denied += group.count;
    if (group.keys.verdict !== "ALLOWED" || group.keys.source !== "check") {
      s.onlyCheckAllowed = false;
    }
    out.set(name, s);
  }
  return out;
}

function requestedRows(requests: readonly ApprovalRequest[]): Map<string, PendingItem> {
  const out = new Map<string, PendingItem & { latestId: number }>();
  for (const r of requests) {
    if (r.status !== "PENDING_REVIEW") continue;
    const row = out.get(r.package);
    if (!row) {
      out.set(r.package, {
        package: r.package,
        reason: "requested",
        count: 1,
        projects: [r.project],
        last_seen: r.created_at,
        rationale: r.rationale,
        latestId: r.id,
      });
      continue;
    }
    row.count += 1;
    if (!row.projects.includes(r.project)) row.projects.push(r.project);
    if (r.created_at > row.last_seen || (r.created_at === row.last_seen && r.id > row.latestId)) {
      row.last_seen = r.created_at;
      row.rationale = r.rationale;
      row.latestId = r.id;
    }
  }
  return new Map(
    [...out].map((
      [name, { latestId: _, ...row }],
    ) => [name, { ...row, projects: row.projects.sort() }]),
  );
}

/**
 * Builds the queue from every approval request (any status, any age) and
 * the audit rows of the window grouped by package, verdict and source.
 *
 * @example
 * ```ts
 * import type { RegistrySnapshot } from "../core/types.ts";
 * import type { ApprovalRequest, AuditGroup } from "../store/types.ts";
 * declare const requests: ApprovalRequest[];
 * declare const groups: AuditGroup[];
 * declare const live: RegistrySnapshot;
 * buildPendingQueue(requests, groups, (name) => live.byName.has(name));
 * ```
 */
export function buildPendingQueue(
  requests: readonly ApprovalRequest[],
  auditGroups: readonly AuditGroup[],
  inRegistry: (name: string) => boolean,
): PendingItem[] {
  const items = requestedRows(requests);
  const everRequested = new Set(requests.map((r) => r.package));
  for (const [name, s] of summarise(auditGroups)) {
    if (items.has(name)) continue;
    let reason: PendingReason | null = null;
    if (s.provisional > 0 && !everRequested.has(name)) reason = "provisional-no-rationale";
    else if (s.denied >= REPEATED_DENIALS) reason = "repeatedly-denied";
    else if (s.onlyCheckAllowed) reason = "pre-screened";
    if (reason) {
      items.set(name, {
        package: name,
        reason,
        count: s.count,
        projects: [...s.projects].sort(),
        last_seen: s.last,
      });
    }
  }
  const rank = (r: PendingReason) => PENDING_REASONS.indexOf(r);
  return [...items.values()]
    .filter((item) => !inRegistry(item.package))
    .sort((a, b) =>
      rank(a.reason) - rank(b.reason) || b.last_seen.localeCompare(a.last_seen) ||
      a.package.localeCompare(b.package)
    );
}
