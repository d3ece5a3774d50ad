/**
 * Wiring of the alerts for the composition root: the configured
 * destinations, the alerter, the delivery loop and the upstream watch, and
 * their shutdown.
 *
 * @module
 */
import { Octokit } from "@octokit/rest";
import type { Logger } from "../log/logger.ts";
import type { UpstreamName, UpstreamState } from "../lookups/upstream_health.ts";
import type { OutboxBacklog, Store } from "../store/types.ts";
import { type Alerter, createAlerter } from "./alerter.ts";
import type { Destination } from "./destination.ts";
import { type DeliveryLoop, startDelivery } from "./delivery.ts";
import { githubDestination } from "./github.ts";
import type { AlertsOptions, DestinationName } from "./settings.ts";
import { slackDestination } from "./slack.ts";
import { createUpstreamWatch } from "./upstream_watch.ts";
import { webhookDestination } from "./webhook.ts";

/** GitHub access of the issue destination (the registry's token and API URL). */
export interface GithubAccess {
  token: string | null;
  apiUrl: string;
}

/**
 * The destinations the options configure, in the order slack, webhook, github.
 *
 * @example
 * ```ts
 * import { optionsFromEnv } from "../config/area.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * import { alertsArea } from "./settings.ts";
 * const options = optionsFromEnv(alertsArea, {});
 * createDestinations(options, { token: null, apiUrl: "https://api.github.com" }, log); // []
 * ```
 */
export function createDestinations(
  options: AlertsOptions,
  github: GithubAccess,
  log: Logger,
): Destination[] {
  const common = { dashboardUrl: options.dashboardUrl, timeoutMs: options.timeoutMs };
  const out: Destination[] = [];
  if (options.slack) out.push(slackDestination({ ...options.slack, ...common }));
  if (options.webhook) out.push(webhookDestination({ ...options.webhook, ...common }));
  if (options.github) {
    const quiet = (message: string) => log.debug("octokit", { message: String(message) });
    const octokit = new Octokit({
      auth: github.token ?? undefined,
      baseUrl: github.apiUrl.replace(/\/+$/, ""),
      userAgent: "policyd-alerts",
      log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    });
    out.push(githubDestination({ ...options.github, ...common, octokit }));
  }
  return out;
}

/** What `/health` shows of the alerts. */
export interface AlertsHealth extends OutboxBacklog {
  destinations: DestinationName[];
}

/** The wired alerts. */
export interface WiredAlerts {
  alerter: Alerter;
  delivery: DeliveryLoop;
  destinations: Destination[];
  /** Starts watching the upstreams' health (every `pollMs`). */
  watchUpstreams(snapshot: () => Record<UpstreamName, UpstreamState>): void;
  health(): Promise<AlertsHealth>;
  close(): Promise<void>;
}

/** Wires the alerts over a store. */
export function wireAlerts(
  options: AlertsOptions,
  deps: {
    store: Pick<Store, "outbox" | "audit">;
    log: Logger;
    instance: string;
    github: GithubAccess;
    now?: () => Date;
    /** Set to false to deliver only on `delivery.flush()` (no background tasks). */
    background?: boolean;
  },
): WiredAlerts {
  const log = deps.log.child({ component: "alerts" });
  const destinations = createDestinations(options, deps.github, log);
  const delivery = startDelivery({
    outbox: deps.store.outbox,
    destinations: new Map(destinations.map((d) => [d.name, d] as const)),
    background: deps.background,
    instance: deps.instance,
    log,
    pollMs: options.pollMs,
    maxAttempts: options.maxAttempts,
    retryBaseMs: options.retryBaseMs,
    timeoutMs: options.timeoutMs,
    now: deps.now,
  });
  const alerter = createAlerter({
    destinations,
    outbox: deps.store.outbox,
    auditLog: deps.store.audit,
    log,
    written: () => delivery.nudge(),
    now: deps.now,
  });
  let watchTimer: ReturnType<typeof setInterval> | undefined;
  return {
    alerter,
    delivery,
    destinations,
    watchUpstreams(snapshot) {
      if (destinations.length === 0 || watchTimer !== undefined) return;
      const watch = createUpstreamWatch({
        snapshot,
        instance: deps.instance,
        downAfterSeconds: options.upstreamDownAfterSeconds,
        now: deps.now,
      });
      watchTimer = setInterval(() => {
        const events = watch.check();
        if (events.length) {
          alerter.emit(events).catch((error) =>
            log.error("cannot write upstream alerts", { detail: (error as Error).message })
          );
        }
      }, Math.max(1000, options.pollMs));
    },
    async health() {
      return {
        destinations: destinations.map((d) => d.name),
        ...(await deps.store.outbox.backlog()),
      };
    },
    async close() {
      clearInterval(watchTimer);
      await delivery.stop();
    },
  };
}
