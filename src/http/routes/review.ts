/**
 * `POST /approval-requests/{id}/reject`, `POST /approval-requests/{id}/dismiss`,
 * `GET /registry/changes`, `POST /registry/changes/{id}/revert` (issue #31).
 *
 * @module
 */
import { Hono } from "hono";
import { ApprovalIdParamsSchema } from "../../api/approvals.ts";
import {
  ApprovalDismissSchema,
  ApprovalRejectSchema,
  ChangesQuerySchema,
} from "../../api/review.ts";
import { normalizeName } from "../../core/names.ts";
import type { ReviewOutcome } from "../../approvals/review.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { ProblemError } from "../problem.ts";
import { requireOperator } from "../operator.ts";
import { jsonBody, parseOr400 } from "../validate.ts";

function valueOr<T>(outcome: ReviewOutcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw new ProblemError(
    outcome.status,
    outcome.status === 404 ? "not-found" : "conflict",
    outcome.detail,
  );
}

/** The review lifecycle routes. */
export function reviewRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  const decision = (
    action: "reject" | "dismiss",
    schema: typeof ApprovalRejectSchema | typeof ApprovalDismissSchema,
    status: "REJECTED" | "DISMISSED",
  ) =>
    routes.post(`/approval-requests/:id/${action}`, async (c) => {
      requireOperator(c, deps);
      const { id } = parseOr400(ApprovalIdParamsSchema, c.req.param(), "id");
      const what = action === "reject" ? "rejection" : "dismissal";
      const { reason } = parseOr400(schema, await jsonBody(c), what);
      const by = c.get("context").requester;
      return c.json(valueOr(await deps.review.decide(id, { status, reason, by })));
    });
  decision("reject", ApprovalRejectSchema, "REJECTED");
  decision("dismiss", ApprovalDismissSchema, "DISMISSED");

  routes.get("/registry/changes", async (c) => {
    const query = parseOr400(ChangesQuerySchema, c.req.query(), "change-log query");
    const items = await deps.store.changes.list({
      ...(query.package ? { package: normalizeName(query.package) } : {}),
      ...(query.before ? { beforeId: query.before } : {}),
    }, query.limit);
    return c.json({ items });
  });

  routes.post("/registry/changes/:id/revert", async (c) => {
    requireOperator(c, deps);
    const { id } = parseOr400(ApprovalIdParamsSchema, c.req.param(), "id");
    const call = c.get("context");
    const outcome = await deps.review.revert(id, {
      source: "operator",
      project: call.project,
      requester: call.requester,
      rationale: `revert of registry change ${id}`,
      ...(call.agent_model ? { agent_model: call.agent_model } : {}),
      ...(call.agent_version ? { agent_version: call.agent_version } : {}),
      extra: { reverts: id },
    });
    return c.json({ result: valueOr(outcome).result, reverts: id });
  });

  return routes;
}
