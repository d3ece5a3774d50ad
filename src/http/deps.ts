/**
 * What the HTTP application needs from the composition root, and the
 * per-request variables its middleware sets.
 *
 * @module
 */
import type { ReleaseSource } from "../lookups/pypi_releases.ts";
import type { Context, Hono } from "hono";
import type { Authenticator, Identity } from "../auth/types.ts";
import type { CacheHealth } from "../cache/types.ts";
import type { CallContext, EvaluationService } from "../evaluation/service.ts";
import type { Logger } from "../log/logger.ts";
import type { LiveRegistry } from "../registry/live.ts";
import type { OutboxAction, OutboxBacklog, OutboxStore, Store } from "../store/types.ts";
import type { ReviewLifecycle } from "../approvals/review.ts";
import type { ApprovalService } from "../approvals/service.ts";
import type { WebhookHandler } from "../approvals/webhook.ts";
import type { Proposer } from "../proposers/types.ts";
import type { UpstreamName, UpstreamState } from "../lookups/upstream_health.ts";
import type { HttpOptions } from "./settings.ts";
import type { IndexService } from "../index/service.ts";
import type { PageRenderer } from "../index/rendered.ts";
import type { GuardOptions } from "./guard_settings.ts";

/** Per-request variables set by middleware. */
export interface AppEnv {
  /** Set by the socket server: the TCP peer of the request. */
  Bindings: { remoteAddr?: { hostname: string } };
  Variables: {
    requestId: string;
    log: Logger;
    identity: Identity | undefined;
    context: CallContext;
    /** Time limit for reading the request body (`REQUEST_READ_TIMEOUT_MS`). */
    bodyReadTimeoutMs: number;
  };
}

/** What the HTTP layer may do with the alert outbox (issue #32). */
export interface AlertsAccess {
  list: OutboxStore["list"];
  /** Makes a delivery due now. */
  retry(id: number): Promise<OutboxAction>;
  /** Stops a delivery. */
  mute(id: number): Promise<OutboxAction>;
  /** The configured destinations and the outbox backlog. */
  health(): Promise<OutboxBacklog & { destinations: string[] }>;
}

/** Dependencies of {@link createApp}. */
export interface AppDeps {
  registry: LiveRegistry;
  evaluations: EvaluationService;
  store: Store;
  log: Logger;
  authenticator: Authenticator;
  /** Group whose members may run operator-only operations; null in single-user mode. */
  operatorGroup: string | null;
  /** Product version for `/health` and OpenAPI. */
  version: string;
  /** Health probes of pluggable parts. */
  cacheHealth: () => CacheHealth;
  proposerName: () => string;
  /** The proposer selected at start-up. */
  proposer: Proposer;
  /** Approval requests, the pending queue and operator proposals. */
  approvals: ApprovalService;
  /** Reject, dismiss and revert (issue #31). */
  review: ReviewLifecycle;
  /** The merge webhook (HMAC-guarded). */
  webhook: WebhookHandler;
  /** Scanner status for `/health` (enabled, schedule, last pass). */
  scannerState: () => unknown | Promise<unknown>;
  /** Release lists of the index, to judge a range at the release it installs; bounds when absent. */
  releases?: ReleaseSource;
  /** State of the upstream services (OSV, PyPI) for `/health`; all `unknown` when absent. */
  upstreams?: () => Record<UpstreamName, UpstreamState>;
  /** The alert outbox: listing, the dashboard's actions, the backlog for `/health`. */
  alerts?: AlertsAccess;
  /** Extra fields merged into `/health` (auth mode, …). */
  healthExtras?: () => Record<string, unknown>;
  /** Process start, for `uptime_s`. */
  startedAt: number;
  /** Clock used by reports; injectable for reproducible documents. */
  now?: () => Date;
  /** Request id source; injectable for reproducible documents. */
  requestIds?: () => string;
  /** The TCP peer address of a request, when served over a socket. */
  remoteAddress?: (c: Context<AppEnv>) => string | null;
  /** Set to false to skip per-request access log lines (benchmarks). */
  accessLog?: boolean;
  /** Limits of the HTTP layer (`http` settings area); defaults when absent. */
  http?: HttpOptions;
  /** Allowed hosts, connection cap, failed-login limit (`guard` settings area); defaults when absent. */
  guard?: GuardOptions;
  /** The index's pages, for the fast path that serves warm ones (`index_fast_path.ts`). */
  indexPages?: { index: IndexService; render: PageRenderer };
  /**
   * The extension point: further route mounts (the dashboards, …), added after
   * the API routes and behind the same authentication and context middleware.
   */
  extraRoutes?: Array<(app: Hono<AppEnv>) => void>;
}
