/**
 * `GET /evaluate` and `POST /evaluate/batch`.
 *
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import { parsePackageSpec } from "../../evaluation/package_spec.ts";
import type { EvaluationRequest } from "../../core/types.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { badRequest } from "../problem.ts";
import { jsonBody, parseOr400 } from "../validate.ts";

/** Largest batch accepted (SPEC §7). */
export const MAX_BATCH = 500;

const batchSchema = z.object({
  packages: z
    .array(z.object({ package: z.string(), version: z.string().optional().nullable() }))
    .min(1, { message: "at least one package is required" })
    .max(MAX_BATCH, { message: `at most ${MAX_BATCH} packages per batch` }),
});

function toRequest(spec: string, version: string | undefined, prefix = ""): EvaluationRequest {
  const parsed = parsePackageSpec(spec, version);
  if (!parsed.ok) {
    throw badRequest(parsed.message, [{ path: prefix + parsed.path, message: parsed.message }]);
  }
  return parsed.request;
}

/** Routes of the Advisor. */
export function evaluateRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get("/evaluate", async (c) => {
    const pkg = c.req.query("package");
    if (pkg === undefined) {
      throw badRequest("query parameter `package` is required", [
        { path: "package", message: "required" },
      ]);
    }
    const request = toRequest(pkg, c.req.query("version"));
    return c.json(await deps.evaluations.evaluate(request, c.get("context")));
  });

  routes.post("/evaluate/batch", async (c) => {
    const body = parseOr400(batchSchema, await jsonBody(c), "batch request");
    const requests = body.packages.map((item, i) =>
      toRequest(item.package, item.version ?? undefined, `packages[${i}].`)
    );
    const results = await deps.evaluations.evaluateMany(requests, c.get("context"));
    return c.json({ results });
  });

  return routes;
}
