/**
 * `GET /health`: liveness and readiness; 503 when the database is unusable.
 * With a shared PostgreSQL database it also names the instance that answered
 * (`instance`) and the last scan pass of any instance (`scanner.last_pass`).
 *
 * @module
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import { healthRoute } from "../../api/service.ts";
import { createUpstreamHealth } from "../../lookups/upstream_health.ts";

/** The health route. */
export function healthRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get(healthRoute.path, async (c) => {
    const dbOk = await deps.store.healthy();
    const snapshot = deps.registry.current();
    const body = {
      status: dbOk ? "ok" : "unavailable",
      version: deps.version,
      registry_version: snapshot.registry.version,
      package_count: snapshot.registry.packages.length,
      db: dbOk ? "ok" : "unavailable",
      cache: deps.cacheHealth(),
      proposer: deps.proposerName(),
      scanner: await deps.scannerState(),
      upstreams: deps.upstreams?.() ?? createUpstreamHealth().snapshot(),
      ...(deps.alerts ? { alerts: await deps.alerts.health().catch(() => null) } : {}),
      uptime_s: Math.floor(((deps.now?.() ?? new Date()).getTime() - deps.startedAt) / 1000),
      ...deps.healthExtras?.(),
    };
    return c.json(body, dbOk ? 200 : 503);
  });
  return routes;
}
