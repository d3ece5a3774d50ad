/**
 * `GET /alerts` (recent alert deliveries and the outbox backlog) and the
 * retry and mute actions, operator only (issue #32).
 *
 * @module
 */
import { Hono } from "hono";
import { AlertIdParamsSchema, AlertsQuerySchema } from "../../api/alerts.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { requireOperator } from "../operator.ts";
import { ProblemError } from "../problem.ts";
import { parseOr400 } from "../validate.ts";

const NO_ALERTS = {
  list: () => Promise.resolve([]),
  retry: () => Promise.resolve("not-found" as const),
  mute: () => Promise.resolve("not-found" as const),
  health: () => Promise.resolve({ destinations: [], pending: 0, dead: 0, oldest_pending_at: null }),
};

/** The alerts routes. */
export function alertRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const alerts = deps.alerts ?? NO_ALERTS;

  routes.get("/alerts", async (c) => {
    requireOperator(c, deps);
    const query = parseOr400(AlertsQuerySchema, c.req.query(), "alerts query");
    const [rows, health] = await Promise.all([
      alerts.list(
        { state: query.state, kind: query.event, destination: query.destination },
        query.limit,
      ),
      alerts.health(),
    ]);
    const { destinations, ...backlog } = health;
    return c.json({
      items: rows.map(({ kind, claimed_by: _claimed, ...row }) => ({ ...row, event: kind })),
      backlog,
      destinations,
    });
  });

  for (const action of ["retry", "mute"] as const) {
    routes.post(`/alerts/:id/${action}`, async (c) => {
      requireOperator(c, deps);
      const { id } = parseOr400(AlertIdParamsSchema, c.req.param(), "id");
      const outcome = await alerts[action](id);
      if (outcome === "done") {
        return c.json({ id, state: action === "retry" ? "pending" : "muted" });
      }
      if (outcome === "not-found") {
        throw new ProblemError(404, "not-found", `no alert delivery ${id}`);
      }
      throw new ProblemError(409, "conflict", `alert delivery ${id} is already delivered`);
    });
  }
  return routes;
}
