/**
 * Storage interface of the alert outbox (issue #32), re-exported by
 * `types.ts`, which the services import.
 *
 * @module
 */
import { ALERT_DELIVERY_STATES } from "../api/enums.ts";
import type { AuditRow, NewAuditRow } from "./audit_types.ts";
import type { ApprovalRequest, NewApprovalRequest } from "./approval_types.ts";

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
