/**
 * The composition root: the only place that wires real adapters (store,
 * cache, lookups, registry, proposer, authenticator, scanner) into the HTTP
 * app, and the socket server around it with graceful shutdown.
 *
 * @module
 */
import { createAuthenticator } from "./auth/select.ts";
import { createCache } from "./cache/factory.ts";
import type { Cache } from "./cache/types.ts";
import { type Options, optionsOf, type Settings, SettingsError } from "./settings.ts";
import { createEvaluationService } from "./evaluation/service.ts";
import { createApp } from "./http/app.ts";
import { DEFAULT_HTTP_OPTIONS } from "./http/settings.ts";
import { DEFAULT_GUARD_OPTIONS } from "./http/guard_settings.ts";
import { limitUpstreamConcurrency } from "./lookups/pool.ts";
import { createLookupSources, type LookupSources } from "./lookups/cached.ts";
import { batchDeadlineMs } from "./lookups/deadline.ts";
import { createPopularNames } from "./lookups/popular.ts";
import type { ScannerHandle } from "./scanner/schedule.ts";
import { wireScanner } from "./server_scanner.ts";
import { createLiveRegistry, startReloadPoller } from "./registry/live.ts";
import { openStore } from "./store/open.ts";
import { type Coordination, localCoordination } from "./cluster/coordination.ts";
import { instanceId } from "./cluster/instance_id.ts";
import { postgresCoordination } from "./cluster/postgres_coordination.ts";
import { announcingRegistry, followReloads } from "./cluster/registry_follow.ts";
import { VERSION } from "./version.ts";
import { wireApprovals } from "./approvals/wiring.ts";
import { approvablePackages } from "./approvals/approvable.ts";
import { withBasicTokens } from "./auth/basic_token.ts";
import { createIndexService } from "./index/service.ts";
import { createPageRenderer } from "./index/rendered.ts";
import { createUpstreamIndex } from "./index/upstream.ts";
import { wireAlerts } from "./alerts/wiring.ts";
import { createChangeLog } from "./approvals/change_log.ts";
import { createUpstreamHealth } from "./lookups/upstream_health.ts";
import { initialSnapshot, StartupError, startupStep } from "./startup.ts";
import { listen, type Listening } from "./http/listen.ts";
import { alertsAccess, dashboardAlerts, extraRoutes } from "./server_routes.ts";

export { StartupError } from "./startup.ts";

import type { BuildOptions, BuiltServer } from "./server_types.ts";
import type { AppDeps } from "./http/deps.ts";

export type { BuildOptions, BuiltServer } from "./server_types.ts";

/**
 * Wires every adapter from the settings and returns the app.
 *
 * @example
 * ```ts
 * import { loadSettings } from "./settings.ts";
 * import { silentLogger as log } from "./log/logger.ts";
 * const built = await buildServer(loadSettings(Deno.env.toObject()), { log });
 * const res = await built.app.request("/api/v1/health");
 * await built.close();
 * ```
 */
export async function buildServer(settings: Settings, options: BuildOptions): Promise<BuiltServer> {
  const log = options.log;
  const now = options.now ?? (() => new Date());
  // Before anything that needs closing: a setting an area's rules reject fails the start-up cleanly.
  let typed: Options;
  try {
    typed = optionsOf(settings);
  } catch (error) {
    throw error instanceof SettingsError ? new StartupError(error.message) : error;
  }
  limitUpstreamConcurrency(typed.guard.upstreamConcurrency);
  const authenticator = withBasicTokens(
    await createAuthenticator(typed.auth, { log: log.child({ component: "auth" }), settings })
      .catch((error) => {
        throw error instanceof SettingsError ? new StartupError(error.message) : error;
      }),
  );
  // Everything opened from here on is closed by this one stack, in reverse order: on a failed
  // start-up when the function leaves, otherwise by BuiltServer.close() (the stack is moved there).
  await using cleanup = new AsyncDisposableStack();
  const backend = await startupStep("open the database", () => openStore(typed.store, { now }));
  const store = backend.store;
  cleanup.defer(() => store.close());
  const instance = instanceId({ INSTANCE_ID: typed.store.instanceId ?? undefined });
  const coordination: Coordination = backend.postgres
    ? postgresCoordination(backend.postgres.sql, instance, log.child({ component: "cluster" }), now)
    : localCoordination(instance);
  const background = options.background ?? true;
  const alerts = wireAlerts(typed.alerts, {
    store,
    log,
    instance,
    github: { token: typed.proposers.githubToken, apiUrl: typed.proposers.githubApiUrl },
    now,
    background,
  });
  cleanup.defer(() => alerts.close());
  const path = typed.registry.path;
  const snapshot = await initialSnapshot(path, log, now());
  const changes = createChangeLog({
    store: store.changes,
    log: log.child({ component: "changes" }),
  });
  const localRegistry = createLiveRegistry({
    path,
    initial: snapshot,
    log,
    now,
    afterSwap: async (next, previous) => {
      await alerts.alerter.ruleChanged(next, previous);
      await changes.recordSwap(next, previous);
      return await store.approvals.approvePackages(approvablePackages(next), now().toISOString());
    },
  });
  const registry = announcingRegistry(localRegistry, coordination, log);
  const alertingStore = alerts.alerter.store(store);
  const cache: Cache = createCache(typed.cache, log);
  cleanup.defer(() => cache.close());
  const wired = await startupStep("set up the proposer", () =>
    wireApprovals(
      { proposers: typed.proposers, registry: typed.registry, settings },
      { log, registry, store: alertingStore, changes, now },
    ));
  cleanup.defer(() => wired.close());
  cleanup.defer(() => coordination.close());
  const caching = { store: cache, ttlSeconds: typed.cache.ttlSeconds };
  const lookups: LookupSources = options.lookups ??
    createLookupSources(typed.lookups, caching, log, now);
  const popular = createPopularNames(
    { ...typed.popular, timeoutMs: 3 * typed.lookups.timeoutMs },
    log.child({ component: "popular" }),
  );
  const evaluations = createEvaluationService({
    registry,
    vulnerabilities: lookups.vulnerabilities,
    licenses: lookups.licenses,
    audit: store.audit,
    popular,
    now,
    batchDeadlineMs: batchDeadlineMs(typed.lookups.timeoutMs),
  });
  const index = createIndexService({
    upstream: createUpstreamIndex({
      ...typed.index,
      cache,
      log: log.child({ component: "index" }),
      now: () => now().getTime(),
    }),
    registry,
    vulnerabilities: lookups.vulnerabilities,
    licenses: lookups.licenses,
    audit: store.audit,
    now,
  });
  const indexPages = { index, render: createPageRenderer() };
  if (background && lookups.upstreams) {
    const upstreams = lookups.upstreams;
    alerts.watchUpstreams(() => upstreams.snapshot());
  }
  if (background && coordination.clustered) {
    const sync = wired.proposer.syncMerged;
    await startupStep("follow registry reloads", () =>
      followReloads(
        localRegistry,
        coordination,
        sync ? () => sync.call(wired.proposer, {}) : null,
        log.child({ component: "cluster" }),
      ));
  }
  if (background) {
    const poller = startReloadPoller(registry, typed.registry.reloadIntervalSeconds, log);
    cleanup.defer(() => poller.stop());
  }
  let scanner: ScannerHandle | null = null;
  if (background) {
    const started = wireScanner({
      lookups: typed.lookups,
      scanner: typed.scanner,
      caching,
      coordination,
      popular,
      registry,
      licenses: lookups.licenses,
      audit: alerts.alerter.audit(store.audit),
      log,
    });
    scanner = started;
    cleanup.defer(() => started.stop());
  }
  const operatorGroup = typed.auth.enabled ? typed.auth.operatorGroup : null;
  const deps: AppDeps = {
    registry,
    evaluations,
    store: alertingStore,
    log,
    authenticator,
    alerts: alertsAccess(store.outbox, alerts),
    operatorGroup,
    version: VERSION,
    cacheHealth: () => cache.health(),
    proposerName: () => wired.proposer.name,
    proposer: wired.proposer,
    approvals: wired.approvals,
    review: wired.review,
    webhook: wired.webhook,
    scannerState: async () => {
      const local = scanner?.status() ??
        { enabled: false, schedule: typed.scanner.schedule, running: false };
      if (!coordination.clustered) return local;
      const last_pass = await coordination.lastScanPass().catch(() => null);
      return { ...local, last_pass };
    },
    upstreams: lookups.upstreams ? () => lookups.upstreams!.snapshot() : undefined,
    releases: lookups.releases,
    healthExtras: () => ({
      auth: { enabled: typed.auth.enabled, backend: authenticator.name },
      ...(coordination.clustered ? { instance } : {}),
    }),
    startedAt: now().getTime(),
    now,
    requestIds: options.requestIds,
    accessLog: options.accessLog,
    http: typed.http,
    guard: typed.guard,
    indexPages,
    extraRoutes: extraRoutes({
      index: indexPages,
      registry,
      store,
      dashboards: {
        alerts: dashboardAlerts(store.outbox, alerts, operatorGroup),
        proposerName: () => wired.proposer.name,
        version: VERSION,
        now,
        status: () => ({
          upstreams: lookups.upstreams?.snapshot() ?? createUpstreamHealth().snapshot(),
          scanner: scanner?.status() ?? null,
        }),
      },
    }),
  };
  const app = createApp(deps);
  const owned = cleanup.move();
  return {
    app,
    deps,
    registry,
    store: alertingStore,
    alerts,
    close: () => owned.disposeAsync(),
  };
}

/** A running socket server. */
export interface RunningServer {
  url: string;
  built: BuiltServer;
  /** Stops accepting, finishes in-flight requests, then closes everything. */
  shutdown(): Promise<void>;
  finished: Promise<void>;
}

/** Serves the app on a socket (port 0 picks a free port). */
export async function startServer(
  settings: Settings,
  options: BuildOptions & { hostname?: string; port?: number; onListen?: (url: string) => void },
): Promise<RunningServer> {
  const built = await buildServer(settings, options);
  const hostname = options.hostname ?? built.deps.http?.host ?? settings.POLICY_HOST;
  const port = options.port ?? built.deps.http?.port ?? settings.POLICY_PORT;
  const timeouts = built.deps.http ?? DEFAULT_HTTP_OPTIONS;
  const guard = built.deps.guard ?? DEFAULT_GUARD_OPTIONS;
  const log = built.deps.log.child({ component: "server" });
  const handler = (request: Request, info: { remoteAddr: Deno.NetAddr }) =>
    built.app.fetch(request, { remoteAddr: info.remoteAddr });
  let server: Listening;
  try {
    server = listen(handler, { hostname, port, http: timeouts, guard, log });
  } catch (error) {
    await built.close();
    throw new StartupError(`cannot listen on ${hostname}:${port}: ${(error as Error).message}`);
  }
  const addr = server.addr;
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  const url = `http://${host}:${addr.port}`;
  options.onListen?.(url);
  let closing: Promise<void> | null = null;
  const shutdown = () =>
    closing ??= (async () => {
      await server.shutdown();
      await built.close();
    })();
  return { url, built, shutdown, finished: server.finished };
}
