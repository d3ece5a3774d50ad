/**
 * `GET /registry/pending`: the review queue (SPEC §7, §15.5, §15.18).
 *
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps, AppEnv } from "../deps.ts";
import { parseOr400 } from "../validate.ts";

const querySchema = z.object({ days: z.coerce.number().int().min(1).max(3650).default(30) });

/** The pending queue route. */
export function registryPendingRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get("/registry/pending", async (c) => {
    const query = parseOr400(querySchema, c.req.query(), "pending query");
    return c.json({ items: await deps.approvals.pending(query.days) });
  });
  return routes;
}
