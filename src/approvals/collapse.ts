/**
 * Collapsing approval requests per package for `GET /approval-requests`
 * (seed "Approval request", SPEC §15.4): count, projects and requesters
 * are computed over the rows given (already filtered by project and status).
 *
 * @module
 */
import type { ApprovalRequest, ApprovalStatus } from "../store/types.ts";

/** One collapsed row. */
export interface CollapsedRequest {
  package: string;
  status: ApprovalStatus;
  count: number;
  projects: string[];
  requesters: string[];
  /** The most recent rationale. */
  rationale: string;
  last_requested_at: string;
}

const newer = (a: ApprovalRequest, b: ApprovalRequest) =>
  a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id);

/**
 * Collapses rows per (package, status), newest first. With a single status
 * filter that is one row per package; with `status=all` a package may show
 * once as PENDING_REVIEW and once as APPROVED, so `status` stays truthful.
 *
 * @example
 * ```ts
 * import type { ApprovalRequest } from "../store/types.ts";
 * declare const a: ApprovalRequest; // left-pad, PENDING_REVIEW
 * declare const b: ApprovalRequest; // left-pad, PENDING_REVIEW, another project
 * collapseRequests([a, b]).map((r) => [r.package, r.count]); // [["left-pad", 2]]
 * ```
 */
export function collapseRequests(rows: readonly ApprovalRequest[]): CollapsedRequest[] {
  const groups = new Map<string, { latest: ApprovalRequest; rows: ApprovalRequest[] }>();
  for (const row of rows) {
    const key = `${row.package}\u0000${row.status}`;
    const group = groups.get(key);
    if (!group) groups.set(key, { latest: row, rows: [row] });
    else {
      group.rows.push(row);
      if (newer(row, group.latest)) group.latest = row;
    }
  }
  const distinct = (values: string[]) => [...new Set(values)].sort();
  return [...groups.values()]
    .map(({ latest, rows }) => ({
      package: latest.package,
      status: latest.status,
      count: rows.length,
      projects: distinct(rows.map((r) => r.project)),
      requesters: distinct(rows.map((r) => r.requester)),
      rationale: latest.rationale,
      last_requested_at: latest.created_at,
    }))
    .sort((a, b) =>
      b.last_requested_at.localeCompare(a.last_requested_at) ||
      a.package.localeCompare(b.package) ||
      a.status.localeCompare(b.status)
    );
}
