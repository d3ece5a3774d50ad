/**
 * Composition of what the app mounts beside its API: the alert actions of the
 * API and the dashboards, the index and the dashboard routes. Part of the
 * composition root (`server.ts`), which hands it the wired parts.
 *
 * @module
 */
import type { Hono } from "hono";
import { dashboardRoutes } from "../dashboards/routes.tsx";
import type { DashboardAlerts, DashboardDeps } from "../dashboards/deps.ts";
import type { WiredAlerts } from "./alerts/wiring.ts";
import type { AlertsAccess, AppEnv } from "./http/deps.ts";
import { indexRoutes } from "./http/routes/index.ts";
import type { IndexService } from "./index/service.ts";
import type { PageRenderer } from "./index/rendered.ts";
import type { LiveRegistry } from "./registry/live.ts";
import type { OutboxAction, OutboxStore, Store } from "./store/types.ts";

async function act(
  outbox: OutboxStore,
  alerts: WiredAlerts,
  action: "retry" | "mute",
  id: number,
): Promise<OutboxAction> {
  const outcome = await outbox[action](id);
  if (outcome === "done" && action === "retry") alerts.delivery.nudge();
  return outcome;
}

/**
 * The alert outbox as the API serves it: a retry that makes a delivery due
 * wakes the delivery loop.
 */
export function alertsAccess(outbox: OutboxStore, alerts: WiredAlerts): AlertsAccess {
  return {
    list: (filter, limit) => outbox.list(filter, limit),
    retry: (id) => act(outbox, alerts, "retry", id),
    mute: (id) => act(outbox, alerts, "mute", id),
    health: () => alerts.health(),
  };
}

/**
 * The alert outbox as the dashboards show it: only the operator group (when
 * authentication is on) may retry or mute.
 */
export function dashboardAlerts(
  outbox: OutboxStore,
  alerts: WiredAlerts,
  operatorGroup: string | null,
): DashboardAlerts {
  return {
    list: (limit) => outbox.list({}, limit),
    backlog: () => outbox.backlog(),
    destinations: alerts.destinations.map((d) => d.name),
    act: (request, id, action) => {
      const groups = (request.identity as { groups?: string[] } | undefined)?.groups;
      if (operatorGroup !== null && !groups?.includes(operatorGroup)) {
        return Promise.resolve("forbidden");
      }
      return act(outbox, alerts, action, id);
    },
  };
}

/** The wired parts the extra routes serve. */
export interface ExtraRouteParts {
  /** The index service and the renderings of its pages (shared with the app's fast path). */
  index: { index: IndexService; render: PageRenderer };
  registry: LiveRegistry;
  store: Store;
  /** The dashboards' dependencies but their review side, which comes from `store`. */
  dashboards: Omit<DashboardDeps, "review" | "audit" | "registry">;
}

/** The routes mounted beside the API: the package index and the dashboards. */
export function extraRoutes(parts: ExtraRouteParts): Array<(app: Hono<AppEnv>) => void> {
  const { index, registry, store } = parts;
  const dashboards: DashboardDeps = {
    ...parts.dashboards,
    registry,
    audit: store.audit,
    review: {
      requests: (filter) => store.approvals.list(filter),
      changes: (filter, limit) => store.changes.list(filter, limit),
    },
  };
  return [
    (app) => app.route("/", indexRoutes({ ...index, registry })),
    (app) => app.route("/", dashboardRoutes(dashboards)),
  ];
}
