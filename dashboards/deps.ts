/**
 * What the dashboards need from the server: a narrow interface, so the pages
 * depend on the registry snapshot and the audit log's read side, not on the
 * HTTP application's dependencies.
 *
 * @module
 */
import type { RegistrySnapshot } from "../src/core/types.ts";
import type { DashboardStatus } from "./status_strip.tsx";
import type {
  ApprovalStore,
  AuditReader,
  ChangeStore,
  OutboxBacklog,
  OutboxRow,
} from "../src/store/types.ts";

/** What the alerts page may do (issue #32). */
export interface DashboardAlerts {
  /** Recent deliveries, newest first. */
  list(limit: number): Promise<OutboxRow[]>;
  backlog(): Promise<OutboxBacklog>;
  destinations: string[];
  /**
   * Retries or mutes a delivery for the caller of this request (the host
   * app decides who is an operator).
   */
  act(
    request: { identity: unknown },
    id: number,
    action: "retry" | "mute",
  ): Promise<"done" | "forbidden" | "not-found" | "delivered">;
}

/** Dependencies of the dashboard routes. */
export interface DashboardDeps {
  /** The live registry snapshot (read only; only the reload routine swaps it). */
  registry: { current(): RegistrySnapshot };
  /** The audit log's read side. */
  audit: AuditReader;
  /** Name of the proposer selected at start-up. */
  proposerName: () => string;
  /** policyd version. */
  version: string;
  /** The alert outbox; the alerts page says "no alerts" without it. */
  alerts?: DashboardAlerts;
  /** Clock of the reports and exports. */
  now: () => Date;
  /** Upstream and scanner state (what `/health` knows) for every page's status strip. */
  status?: () => DashboardStatus;
  /** The approval requests and the registry change log (read side, issue #31). */
  review: {
    requests: ApprovalStore["list"];
    changes: ChangeStore["list"];
  };
}
