/**
 * `POST /approval-requests`, `GET /approval-requests`,
 * `GET /approval-requests/{id}`.
 *
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import { parsePackageSpec } from "../../evaluation/package_spec.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { badRequest, ProblemError } from "../problem.ts";
import { jsonBody, parseOr400 } from "../validate.ts";

const createSchema = z.object({
  package: z.string({ message: "required string" }),
  version: z.string().nullish(),
  rationale: z
    .string({ message: "required string" })
    .trim()
    .min(1, { message: "a rationale is required" })
    .max(4000, { message: "at most 4000 characters" }),
});

const listSchema = z.object({
  status: z
    .enum(["PENDING_REVIEW", "APPROVED", "all"], {
      message: "expected PENDING_REVIEW, APPROVED or all",
    })
    .default("PENDING_REVIEW"),
});

/** Approval request routes. */
export function approvalRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post("/approval-requests", async (c) => {
    const body = parseOr400(createSchema, await jsonBody(c), "approval request");
    const parsed = parsePackageSpec(body.package, body.version ?? undefined);
    if (!parsed.ok) {
      throw badRequest(parsed.message, [{ path: parsed.path, message: parsed.message }]);
    }
    const displayName = body.package.trim().split(/[\s=!<>~;\[@(]/)[0] || parsed.request.name;
    const row = await deps.approvals.request({
      package: parsed.request.name,
      displayName,
      version: parsed.request.version,
      rationale: body.rationale,
    }, c.get("context"));
    return c.json(
      {
        id: row.id,
        package: row.package,
        status: row.status,
        project: row.project,
        created_at: row.created_at,
      },
      202,
    );
  });

  routes.get("/approval-requests", async (c) => {
    const query = parseOr400(listSchema, c.req.query(), "approval request query");
    const project = c.get("context").project;
    const items = await deps.approvals.list({
      project: project === "*" ? null : project,
      status: query.status === "all" ? null : query.status,
    });
    return c.json({ items });
  });

  routes.get("/approval-requests/:id", async (c) => {
    const id = parseOr400(
      z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
      c.req.param("id"),
      "id",
    );
    const row = await deps.approvals.get(id);
    if (!row) throw new ProblemError(404, "not-found", `no approval request ${id}`);
    return c.json(row);
  });

  return routes;
}
