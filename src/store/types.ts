/**
 * Storage interfaces of the audit log and the approval requests. SQLite
 * (`sqlite.ts`) is the implementation shipped; a PostgreSQL store for
 * multi-instance deployments implements the same interfaces.
 *
 * @module
 */
import type {
  AppliedException,
  DecisionData,
  DenialCategory,
  PackageRule,
  RegistryStatus,
  Threat,
  Verdict,
} from "../core/types.ts";

/** Call sources a client may declare with `X-Policy-Source`. */
export { CALL_SOURCES } from "../core/types.ts";
export type { CallSource } from "../core/types.ts";

/** Verdict column values: evaluation verdicts plus scanner alerts. */
export type AuditVerdict = Verdict | "CVE_ALERT";

/** Denial category column values: evaluation categories plus scanner alerts. */
export type AuditCategory = DenialCategory | "DENIAL_CVE_ALERT";

/** An audit row before it is stored. */
export interface NewAuditRow {
  package: string;
  version: string | null;
  license: string | null;
  verdict: AuditVerdict;
  project: string;
  requester: string;
  agent_model: string | null;
  agent_version: string | null;
  source: string;
  denial_category: AuditCategory | null;
  cve_ids: string[];
  max_cvss: number | null;
  registry_status: RegistryStatus | null;
  registry_version: string | null;
  license_raw: string | null;
  reason: string;
  /** What the decision knew (issue 14); null for scanner alerts and rows before it. */
  data?: DecisionData | null;
  /** Exceptions that waived findings of this decision. */
  exceptions_applied?: AppliedException[];
  /** Supply-chain threats the decision found (SPEC §17.2); [] for rows before them. */
  threats?: Threat[];
}

/** An audit row as stored (SPEC §8). `ts` is an ISO-8601 UTC timestamp. */
export interface AuditRow extends NewAuditRow {
  id: number;
  ts: string;
}

/** Filter of audit queries; every field narrows the set. */
export interface AuditFilter {
  /** Inclusive lower bound on `ts` (ISO-8601). */
  since?: string;
  project?: string;
  package?: string;
  verdicts?: AuditVerdict[];
  categories?: AuditCategory[];
  /** Keep only rows whose license equals this value. */
  license?: string;
  /** Keep only rows with a non-null license. */
  hasLicense?: boolean;
  /** Keep only rows whose data of this kind was unavailable. */
  dataUnavailable?: "vulnerabilities" | "license";
  packages?: string[];
  /** Exclusive upper bound on `ts` (ISO-8601). */
  until?: string;
  agent_model?: string;
  /** Keep only rows whose agent model starts with this text (case-insensitive). */
  agentModelPrefix?: string;
  source?: string;
  /** Keep only rows recorded while the registry listed the package (`registry_status` set). */
  registryKnown?: boolean;
  /** Keyset cursor: only rows after this one in newest-first order. */
  before?: { ts: string; id: number };
}

/** Columns audit rows can be grouped by. */
export type AuditGroupKey =
  | "package"
  | "project"
  | "license"
  | "verdict"
  | "agent_model"
  | "agent_version"
  | "source"
  /** CVSS band of `max_cvss` (critical, high, medium, low, unknown). */
  | "severity"
  /** One group per CVE id listed in `cve_ids` (a row counts once per id). */
  | "cve"
  /** The UTC day of `ts` (`YYYY-MM-DD`). */
  | "day"
  /** The `denial_category` column. */
  | "category";

/** One group of an audit aggregation. */
export interface AuditGroup {
  /** The group's values, keyed by the grouping columns. */
  keys: Partial<Record<AuditGroupKey, string | null>>;
  count: number;
  max_cvss: number | null;
  last_ts: string;
  /** Distinct projects of the group's rows, sorted. */
  projects: string[];
  /** Distinct CVE ids of the group's rows, sorted. */
  cve_ids: string[];
}

/** Append-only audit log with the queries reports and the pending queue need. */
export interface AuditStore {
  /** Commits one row and returns it with its id and timestamp. */
  insert(row: NewAuditRow): Promise<AuditRow>;
  /** Commits many rows in one transaction, in order. */
  insertMany(rows: NewAuditRow[]): Promise<AuditRow[]>;
  /** Rows matching the filter, newest first. */
  list(filter: AuditFilter, limit: number): Promise<AuditRow[]>;
  /** Row counts and rollups per group, largest count first. */
  group(filter: AuditFilter, by: AuditGroupKey[]): Promise<AuditGroup[]>;
  /** The newest scanner alert of a package, if any. */
  lastAlert(pkg: string): Promise<AuditRow | undefined>;
}

/** The read side of the audit log, all that reports and dashboards need. */
export type AuditReader = Pick<AuditStore, "list" | "group">;

/** Statuses of an approval request. */
export type { ApprovalStatus } from "../api/enums.ts";
import type { ApprovalStatus, ChangeKind } from "../api/enums.ts";

/** An approval request before it is stored. */
export interface NewApprovalRequest {
  package: string;
  version: string | null;
  project: string;
  requester: string;
  rationale: string;
  agent_model: string | null;
  agent_version: string | null;
  /** The call source the request came through (`X-Policy-Source`, `mcp`); null before v7. */
  source?: string | null;
}

/** An approval request as stored (SPEC §8). */
export interface ApprovalRequest extends NewApprovalRequest {
  id: number;
  status: ApprovalStatus;
  created_at: string;
  decided_at: string | null;
  /** Outcome of the proposer fired for this request, once known. */
  proposal_status: string | null;
  proposal_detail: string | null;
  /** The operator who rejected or dismissed the request. */
  decided_by: string | null;
  /** Why it was rejected or dismissed. */
  decision_reason: string | null;
}

/** An operator's decision that closes a pending request without approving it. */
export interface RequestDecision {
  status: "REJECTED" | "DISMISSED";
  reason: string;
  by: string;
  at: string;
}

/** Filter of approval request listings. */
export interface ApprovalFilter {
  /** Omit for every project. */
  project?: string;
  /** Omit for every status. */
  status?: ApprovalStatus;
  package?: string;
}

/** Durable approval requests. */
export interface ApprovalStore {
  create(request: NewApprovalRequest): Promise<ApprovalRequest>;
  /** One request by id. */
  get(id: number): Promise<ApprovalRequest | undefined>;
  list(filter: ApprovalFilter): Promise<ApprovalRequest[]>;
  /** Flips every PENDING_REVIEW request of these packages to APPROVED; returns how many. */
  approvePackages(packages: string[], decidedAt: string): Promise<number>;
  /** Records what the proposer said about a request. */
  recordProposal(id: number, status: string, detail: string): Promise<void>;
  /**
   * Rejects or dismisses a request that is still `PENDING_REVIEW`; returns
   * the row afterwards (unchanged when it was not pending), or undefined.
   */
  decide(id: number, decision: RequestDecision): Promise<ApprovalRequest | undefined>;
}

/** A registry rule as the change log stores it (the compiled rule's fields, any status text). */
export type ChangedRule = Omit<PackageRule, "status"> & { status: string };

/** A registry change-log entry before it is stored. */
export interface NewRegistryChange {
  /** Normalised package name. */
  package: string;
  kind: ChangeKind;
  /** The rule before the change (null: the package was not in the registry). */
  before: ChangedRule | null;
  /** The rule after (or, for a proposal not applied yet, the rule proposed); null: removed. */
  after: ChangedRule | null;
  /** Who: the operator or agent behind a proposal, null for a reload without one. */
  actor: string | null;
  /** The proposer that ran (`local_file`, `github`, …), null for a bare reload. */
  proposer: string | null;
  previous_version: string | null;
  registry_version: string | null;
  /** The pull request of a `github` proposal. */
  url: string | null;
  /** The entry this change reverts. */
  reverts: number | null;
  /** The approval request a rejection or dismissal closed. */
  request_id: number | null;
  detail: string;
}

/** A stored registry change-log entry. */
export interface RegistryChange extends NewRegistryChange {
  id: number;
  ts: string;
}

/** Filter of change-log listings. */
export interface ChangeFilter {
  package?: string;
  /** Entries before this id (newest first paging). */
  beforeId?: number;
}

/** The registry change log: append-only. */
export interface ChangeStore {
  record(change: NewRegistryChange): Promise<RegistryChange>;
  get(id: number): Promise<RegistryChange | undefined>;
  /** Newest first. */
  list(filter: ChangeFilter, limit: number): Promise<RegistryChange[]>;
}

/** The whole store: audit log, approval requests and lifecycle. */
export interface Store {
  readonly audit: AuditStore;
  readonly approvals: ApprovalStore;
  /** The alert outbox (issue #32). */
  readonly outbox: OutboxStore;
  /** The registry change log (issue #31). */
  readonly changes: ChangeStore;
  /** Whether the database answers; `/health` turns `false` into 503. */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

import { ALERT_DELIVERY_STATES } from "../api/enums.ts";

/** Delivery states of an outbox row (issue #32). */
export const OUTBOX_STATES = ALERT_DELIVERY_STATES;

/** One of {@link OUTBOX_STATES}. */
export type OutboxState = typeof OUTBOX_STATES[number];

/** An alert event for one destination, before it is written to the outbox. */
export interface OutboxEntry {
  /** The event's idempotency key; (key, destination) is unique. */
  key: string;
  destination: string;
  kind: string;
  severity: string;
  package: string | null;
  title: string;
  data: Record<string, unknown>;
  occurred_at: string;
}

/** An outbox row: one event for one destination and its delivery state. */
export interface OutboxRow extends OutboxEntry {
  id: number;
  created_at: string;
  state: OutboxState;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  delivered_at: string | null;
  /** The instance holding the row's claim, while it delivers. */
  claimed_by: string | null;
}

/** How many deliveries wait, for `/health`. */
export interface OutboxBacklog {
  pending: number;
  dead: number;
  oldest_pending_at: string | null;
}

/** What a retry or mute did: `done`, or why not. */
export type OutboxAction = "done" | "delivered" | "not-found";

/** Filter of outbox listings. */
export interface OutboxFilter {
  state?: OutboxState;
  kind?: string;
  destination?: string;
}

/**
 * The alert outbox (issue #32): entries are written in the same transaction
 * as their cause where there is one; deliverers claim due rows with a lease,
 * so several instances deliver each row once.
 */
export interface OutboxStore {
  /** Writes entries; an entry whose (key, destination) exists is skipped. Returns how many were new. */
  enqueue(entries: OutboxEntry[]): Promise<number>;
  /** Inserts an audit row and the entries built from it in one transaction. */
  insertAuditWith(row: NewAuditRow, build: (stored: AuditRow) => OutboxEntry[]): Promise<AuditRow>;
  /**
   * Creates an approval request and the entries built from it in one
   * transaction; `pendingBefore` counts the package's other requests pending review.
   */
  createApprovalWith(
    request: NewApprovalRequest,
    build: (stored: ApprovalRequest, pendingBefore: number) => OutboxEntry[],
  ): Promise<ApprovalRequest>;
  /** Claims up to `limit` due pending rows for `instance` until now + `leaseMs`, oldest first. */
  claim(instance: string, leaseMs: number, limit: number): Promise<OutboxRow[]>;
  /** Marks a claimed row delivered. */
  delivered(id: number, instance: string): Promise<void>;
  /** Records a failed try: due again at `retryAt`, or dead-lettered when it is null. */
  failed(id: number, instance: string, error: string, retryAt: string | null): Promise<void>;
  /** Rows, newest first. */
  list(filter: OutboxFilter, limit: number): Promise<OutboxRow[]>;
  /** Makes a dead, muted or pending row due now with a fresh count of tries. */
  retry(id: number): Promise<OutboxAction>;
  /** Stops delivering a row that is not delivered yet. */
  mute(id: number): Promise<OutboxAction>;
  backlog(): Promise<OutboxBacklog>;
}
