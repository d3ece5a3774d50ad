/**
 * Enumerations that appear on the wire and belong to no pure-core type:
 * approval statuses, pending-queue reasons and proposal statuses. Verdicts,
 * denial categories, registry statuses and call sources live in
 * `src/core/types.ts` and are re-exported here so a caller finds every
 * enumeration of the API in one place.
 *
 * @module
 */
export {
  CALL_SOURCES,
  DATA_STATUSES,
  DENIAL_CATEGORIES,
  REGISTRY_STATUSES,
  THREAT_KINDS,
  VERDICTS,
} from "../core/types.ts";

/**
 * Statuses of an approval request: waiting, approved (a reload made the
 * package allowed), rejected by an operator with a reason, or dismissed
 * (closed without a decision on the package, e.g. a duplicate).
 */
export const APPROVAL_STATUSES = ["PENDING_REVIEW", "APPROVED", "REJECTED", "DISMISSED"] as const;

/** One of {@link APPROVAL_STATUSES}. */
export type ApprovalStatus = typeof APPROVAL_STATUSES[number];

/** Reasons of the review queue, highest signal first. */
export const PENDING_REASONS = [
  "requested",
  "provisional-no-rationale",
  "repeatedly-denied",
  "pre-screened",
] as const;

/** One of {@link PENDING_REASONS}. */
export type PendingReason = typeof PENDING_REASONS[number];

/** Status values of a proposal (seed "ProposalResult"). */
export const PROPOSAL_STATUSES = ["opened", "amended", "applied", "logged", "failed"] as const;

/** One of {@link PROPOSAL_STATUSES}. */
export type ProposalStatus = typeof PROPOSAL_STATUSES[number];

/**
 * What an approval request records about its proposal: a proposal status, or
 * `queued` (waiting for an operator's approval: the proposer applies at once,
 * SPEC §17.1) or `skipped` (the package already has a rule).
 */
export const REQUEST_PROPOSAL_STATUSES = [...PROPOSAL_STATUSES, "queued", "skipped"] as const;

/** One of {@link REQUEST_PROPOSAL_STATUSES}. */
export type RequestProposalStatus = typeof REQUEST_PROPOSAL_STATUSES[number];

/** Kinds of alert events (issue #32), in the order docs/alerts.md lists them. */
export const ALERT_EVENTS = [
  "cve_alert",
  "malicious_seen",
  "request_filed",
  "rule_changed",
  "upstream_down",
  "upstream_up",
] as const;

/** Severities of alert events, lowest first. */
export const ALERT_SEVERITIES = ["info", "low", "medium", "high", "critical"] as const;

/** Delivery states of an alert to one destination. */
export const ALERT_DELIVERY_STATES = ["pending", "delivered", "dead", "muted"] as const;

/**
 * Kinds of a registry change-log entry: what a proposer did (`applied`,
 * `opened`, `amended`, `logged`), a reload that changed rules without a
 * proposal behind it (`reloaded`: a merged pull request, a hand edit), or an
 * operator's decision on an approval request (`rejected`, `dismissed`).
 */
export const CHANGE_KINDS = [
  "applied",
  "opened",
  "amended",
  "logged",
  "reloaded",
  "rejected",
  "dismissed",
] as const;

/** One of {@link CHANGE_KINDS}. */
export type ChangeKind = typeof CHANGE_KINDS[number];
