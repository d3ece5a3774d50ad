/**
 * Storage interfaces of the approval requests and the registry change log
 * (re-exported by `types.ts`, which the services import).
 *
 * @module
 */
import type { PackageRule } from "../core/types.ts";
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
