/**
 * `GET /audit`: the audit log, filtered and paginated newest first (keyset
 * cursor). The query is the contract's (`src/api/audit.ts`), the one
 * `/dashboard/audit` uses too.
 *
 * @module
 */
import { Hono } from "hono";
import { auditPage, parseAuditQuery } from "../../reports/audit_log.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { auditRoute } from "../../api/audit.ts";
import { badRequest } from "../problem.ts";

/** The audit-log route. */
export function auditRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get(auditRoute.path, async (c) => {
    const parsed = parseAuditQuery(c.req.query(), c.req.header("x-policy-project") ?? null);
    if (!parsed.ok) {
      throw badRequest(
        `invalid audit query: ${parsed.errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`,
        parsed.errors,
      );
    }
    return c.json(await auditPage(deps.store.audit, parsed.query, deps.now?.() ?? new Date()));
  });
  return routes;
}
