/**
 * `GET /reports/legal`, `/reports/security`, `/reports/agents`.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { reportProject, ReportQuerySchema } from "../../api/reports.ts";
import { agentsReport } from "../../reports/agents.ts";
import { legalReport } from "../../reports/legal.ts";
import type { ReportParams } from "../../reports/params.ts";
import { securityReport } from "../../reports/security.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { parseOr400 } from "../validate.ts";

function paramsOf(c: Context<AppEnv>, deps: AppDeps): ReportParams {
  const query = parseOr400(ReportQuerySchema, c.req.query(), "report query");
  return {
    days: query.days,
    limit: query.limit,
    project: reportProject(query, c.req.header("x-policy-project")),
    now: deps.now?.() ?? new Date(),
  };
}

/** Report routes. */
export function reportRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get(
    "/reports/legal",
    async (c) =>
      c.json(await legalReport(deps.store.audit, paramsOf(c, deps), deps.registry.current())),
  );
  routes.get(
    "/reports/security",
    async (c) =>
      c.json(await securityReport(deps.store.audit, paramsOf(c, deps), deps.registry.current())),
  );
  routes.get(
    "/reports/agents",
    async (c) => c.json(await agentsReport(deps.store.audit, paramsOf(c, deps))),
  );
  return routes;
}
