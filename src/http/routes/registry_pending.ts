/**
 * `GET /registry/pending`: the review queue (SPEC §7, §15.5, §15.18).
 *
 * @module
 */
import { Hono } from "hono";
import { PendingQuerySchema } from "../../api/registry.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { parseOr400 } from "../validate.ts";

/** The pending queue route. */
export function registryPendingRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get("/registry/pending", async (c) => {
    const query = parseOr400(PendingQuerySchema, c.req.query(), "pending query");
    return c.json({ items: await deps.approvals.pending(query.days) });
  });
  return routes;
}
