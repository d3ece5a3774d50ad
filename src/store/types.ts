/**
 * Storage interfaces: the whole store here, its parts in `audit_types.ts`,
 * `approval_types.ts` (approval requests, change log) and `outbox_types.ts`,
 * re-exported so services import one module. SQLite (`sqlite.ts`) is the
 * implementation shipped; a PostgreSQL store for multi-instance deployments
 * implements the same interfaces.
 *
 * @module
 */

/** Call sources a client may declare with `X-Policy-Source`. */
export { CALL_SOURCES } from "../core/types.ts";
export type { CallSource } from "../core/types.ts";
export * from "./audit_types.ts";
export * from "./approval_types.ts";
export * from "./outbox_types.ts";
import type { ApprovalStore, ChangeStore } from "./approval_types.ts";
import type { OutboxStore } from "./outbox_types.ts";
import type { AuditStore } from "./audit_types.ts";

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
