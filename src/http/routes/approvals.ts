/**
 * `POST /approval-requests`, `GET /approval-requests`,
 * `GET /approval-requests/{id}`.
 *
 * @module
 */
import { Hono } from "hono";
import {
  ApprovalCreateSchema,
  ApprovalIdParamsSchema,
  ApprovalListQuerySchema,
} from "../../api/approvals.ts";
import { approvalFiledMessage } from "../../api/approval_message.ts";
import { approvalCreateRoute, approvalGetRoute, approvalListRoute } from "../../api/approvals.ts";
import { parsePackageSpec } from "../../evaluation/package_spec.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { badRequest, ProblemError } from "../problem.ts";
import { jsonBody, parseOr400 } from "../validate.ts";

/** Approval request routes. */
export function approvalRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post(approvalCreateRoute.path, async (c) => {
    const body = parseOr400(ApprovalCreateSchema, await jsonBody(c), "approval request");
    const parsed = parsePackageSpec(body.package, body.version ?? undefined);
    if (!parsed.ok) {
      throw badRequest(parsed.message, [{ path: parsed.path, message: parsed.message }]);
    }
    const displayName = body.package.trim().split(/[\s=!<>~;\[@(]/)[0] || parsed.request.name;
    const row = await deps.approvals.request(
      {
        package: parsed.request.name,
        displayName,
        version: parsed.request.version,
        rationale: body.rationale,
      },
      c.get("context"),
    );
    return c.json(
      {
        id: row.id,
        package: row.package,
        status: row.status,
        project: row.project,
        created_at: row.created_at,
        message: approvalFiledMessage(row.id),
      },
      202,
    );
  });

  routes.get(approvalListRoute.path, async (c) => {
    const query = parseOr400(ApprovalListQuerySchema, c.req.query(), "approval request query");
    const project = c.get("context").project;
    const items = await deps.approvals.list({
      project: project === "*" ? null : project,
      status: query.status === "all" ? null : query.status,
    });
    return c.json({ items });
  });

  routes.get(approvalGetRoute.path, async (c) => {
    const { id } = parseOr400(ApprovalIdParamsSchema, c.req.param(), "id");
    const row = await deps.approvals.get(id);
    if (!row) throw new ProblemError(404, "not-found", `no approval request ${id}`);
    return c.json(row);
  });

  return routes;
}
