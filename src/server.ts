/**
 * The composition root: the only place that wires real adapters (store,
 * cache, lookups, registry, proposer, authenticator, scanner) into the HTTP
 * app, and the socket server around it with graceful shutdown.
 *
 * @module
 */
import type { Hono } from "hono";
import { createAuthenticator } from "./auth/select.ts";
import { createCache } from "./cache/factory.ts";
import type { Cache } from "./cache/types.ts";
import { type Options, optionsOf, type Settings, SettingsError } from "./settings.ts";
import { createEvaluationService } from "./evaluation/service.ts";
import { createApp } from "./http/app.ts";
import { DEFAULT_HTTP_OPTIONS } from "./http/settings.ts";
import { DEFAULT_GUARD_OPTIONS } from "./http/guard_settings.ts";
import { limitUpstreamConcurrency } from "./lookups/pool.ts";
import { serveWithTimeouts, timedServerAvailable } from "./http/timed_server.ts";
import { dashboardRoutes } from "../dashboards/routes.tsx";
import type { AppDeps, AppEnv } from "./http/deps.ts";
import type { Logger } from "./log/logger.ts";
import { createLookupSources, type LookupSources } from "./lookups/cached.ts";
import { batchDeadlineMs } from "./lookups/deadline.ts";
import { createPopularNames } from "./lookups/popular.ts";
import { runScanPass } from "./scanner/scan_pass.ts";
import { createOsvScanSource } from "./lookups/osv_scan.ts";
import { type ScannerHandle, startScanner } from "./scanner/schedule.ts";
import type { LicenseSource, VulnerabilitySource } from "./lookups/types.ts";
import { compileRegistry, createSnapshot, emptySnapshot } from "./registry/compile.ts";
import { createLiveRegistry, type LiveRegistry, startReloadPoller } from "./registry/live.ts";
import { openStore } from "./store/open.ts";
import { type Coordination, localCoordination } from "./cluster/coordination.ts";
import { instanceId } from "./cluster/instance_id.ts";
import { postgresCoordination } from "./cluster/postgres_coordination.ts";
import { announcingRegistry, followReloads } from "./cluster/registry_follow.ts";
import type { Store } from "./store/types.ts";
import { VERSION } from "./version.ts";
import { wireApprovals } from "./approvals/wiring.ts";
import { approvablePackages } from "./approvals/approvable.ts";
import { withBasicTokens } from "./auth/basic_token.ts";
import { createIndexService } from "./index/service.ts";
import { createUpstreamIndex } from "./index/upstream.ts";
import { indexRoutes } from "./http/routes/index.ts";
import { wireAlerts, type WiredAlerts } from "./alerts/wiring.ts";
import { createChangeLog } from "./approvals/change_log.ts";
import { createUpstreamHealth } from "./lookups/upstream_health.ts";

/** Options of {@link buildServer}; overrides exist for tests and the workflow docs. */
export interface BuildOptions {
  log: Logger;
  now?: () => Date;
  requestIds?: () => string;
  accessLog?: boolean;
  /** Replace the upstream lookups (tests use the fake upstream through settings instead). */
  lookups?: { vulnerabilities: VulnerabilitySource; licenses: LicenseSource };
  /** Skip background tasks (poller, scanner). */
  background?: boolean;
}

/** A wired application and the parts that need closing. */
export interface BuiltServer {
  app: Hono<AppEnv>;
  deps: AppDeps;
  registry: LiveRegistry;
  store: Store;
  /** The alerts: destinations, the delivery loop (`flush()` delivers what is due now). */
  alerts: WiredAlerts;
  /** Stops background tasks and closes the store, cache and proposer. */
  close(): Promise<void>;
}

/** Thrown when the registry cannot be loaded at start-up. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}

async function initialSnapshot(path: string, log: Logger, now: Date) {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      log.warn("registry file not found; starting with an empty registry", { path });
      return await emptySnapshot(now);
    }
    throw new StartupError(`cannot read registry ${path}: ${(error as Error).message}`);
  }
  const compiled = await compileRegistry(text, now);
  if (!compiled.ok) {
    throw new StartupError(
      `invalid registry ${path}: ` +
        compiled.errors.map((e) => `${e.path}: ${e.message}`).join("; "),
    );
  }
  return createSnapshot(compiled.registry, compiled.contentHash);
}

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
  const backend = await openStore(typed.store, { now }).catch((error) => {
    throw new StartupError(`cannot open the database: ${(error as Error).message}`);
  });
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
  const wired = await wireApprovals(
    { proposers: typed.proposers, registry: typed.registry, settings },
    { log, registry, store: alertingStore, changes, now },
  ).catch((error) => {
    throw new StartupError(`cannot set up the proposer: ${(error as Error).message}`);
  });
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
  if (background && lookups.upstreams) {
    const upstreams = lookups.upstreams;
    alerts.watchUpstreams(() => upstreams.snapshot());
  }
  if (background && coordination.clustered) {
    const sync = wired.proposer.syncMerged;
    await followReloads(
      localRegistry,
      coordination,
      sync ? () => sync.call(wired.proposer, {}) : null,
      log.child({ component: "cluster" }),
    ).catch((error) => {
      throw new StartupError(`cannot follow registry reloads: ${(error as Error).message}`);
    });
  }
  if (background) {
    const poller = startReloadPoller(registry, typed.registry.reloadIntervalSeconds, log);
    cleanup.defer(() => poller.stop());
  }
  let scanner: ScannerHandle | null = null;
  if (background) {
    const osvScan = createOsvScanSource({
      lookups: typed.lookups,
      cache: caching,
      log: log.child({ component: "scanner" }),
    });
    try {
      scanner = startScanner({
        schedule: typed.scanner.schedule,
        log: log.child({ component: "scanner" }),
        coordination,
        runPass: async () => {
          await popular.refresh();
          return await runScanPass({
            vulnerabilities: osvScan,
            scanner: typed.scanner,
            registry: registry.current().registry,
            licenses: lookups.licenses,
            audit: alerts.alerter.audit(store.audit),
            log: log.child({ component: "scanner" }),
          });
        },
      });
    } catch (error) {
      throw new StartupError((error as Error).message);
    }
    const started = scanner;
    cleanup.defer(() => started.stop());
  }
  const deps: AppDeps = {
    registry,
    evaluations,
    store: alertingStore,
    log,
    authenticator,
    alerts: {
      list: (filter, limit) => store.outbox.list(filter, limit),
      retry: async (id) => {
        const outcome = await store.outbox.retry(id);
        if (outcome === "done") alerts.delivery.nudge();
        return outcome;
      },
      mute: (id) => store.outbox.mute(id),
      health: () => alerts.health(),
    },
    operatorGroup: typed.auth.enabled ? typed.auth.operatorGroup : null,
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
    extraRoutes: [
      (app) => app.route("/", indexRoutes({ index, registry })),
      (app) =>
        app.route(
          "/",
          dashboardRoutes({
            registry,
            audit: store.audit,
            alerts: {
              list: (limit) => store.outbox.list({}, limit),
              backlog: () => store.outbox.backlog(),
              destinations: alerts.destinations.map((d) => d.name),
              act: async (request, id, action) => {
                const groups = (request.identity as { groups?: string[] } | undefined)?.groups;
                const operatorGroup = typed.auth.enabled ? typed.auth.operatorGroup : null;
                if (operatorGroup !== null && !groups?.includes(operatorGroup)) return "forbidden";
                const outcome = await store.outbox[action](id);
                if (outcome === "done" && action === "retry") alerts.delivery.nudge();
                return outcome;
              },
            },
            proposerName: () => wired.proposer.name,
            version: VERSION,
            now,
            status: () => ({
              upstreams: lookups.upstreams?.snapshot() ?? createUpstreamHealth().snapshot(),
              scanner: scanner?.status() ?? null,
            }),
            review: {
              requests: (filter) => store.approvals.list(filter),
              changes: (filter, limit) => store.changes.list(filter, limit),
            },
          }),
        ),
    ],
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
  let server: Pick<Deno.HttpServer<Deno.NetAddr>, "addr" | "finished" | "shutdown">;
  try {
    // Header-read and idle time-outs need our own accept loop (Deno.serve has none).
    const timed = timeouts.headerTimeoutMs > 0 || timeouts.idleTimeoutMs > 0;
    server = timed && timedServerAvailable()
      ? serveWithTimeouts({
        hostname,
        port,
        headerTimeoutMs: timeouts.headerTimeoutMs,
        idleTimeoutMs: timeouts.idleTimeoutMs,
        maxConnections: guard.maxConnections,
        // A body still arriving after its read deadline no longer holds the shutdown.
        drainTimeoutMs: timeouts.bodyReadTimeoutMs + 5_000,
        onAcceptError: (error, { transient, retryInMs }) =>
          transient
            ? log.warn("accept failed; retrying", { error: String(error), retry_in_ms: retryInMs })
            : log.error("accept failed; the server stops", { error: String(error) }),
      }, handler)
      : Deno.serve({ hostname, port, onListen: () => {} }, handler);
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
