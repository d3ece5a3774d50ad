/**
 * `GET /evaluate` and `POST /evaluate/batch`.
 *
 * @module
 */
import { Hono } from "hono";
import {
  BatchRequestSchema,
  evaluateBatchRoute,
  EvaluateQuerySchema,
  evaluateRoute,
} from "../../api/evaluate.ts";
import { parsePackageSpec } from "../../evaluation/package_spec.ts";
import { evaluationJson } from "../../evaluation/evaluation_json.ts";
import { newestAdmitted, rangeBound } from "../../evaluation/resolve_range.ts";
import type { EvaluationRequest } from "../../core/types.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { badRequest } from "../problem.ts";
import { jsonBody, parseOr400 } from "../validate.ts";

/**
 * The request a package spec asks for; a range (`urllib3<2`) is judged at the
 * newest non-yanked release it admits on the index, else at its bound.
 */
async function toRequest(
  deps: AppDeps,
  spec: string,
  version: string | undefined,
  prefix = "",
): Promise<EvaluationRequest> {
  const parsed = parsePackageSpec(spec, version, { ranges: true });
  if (!parsed.ok) {
    throw badRequest(parsed.message, [{ path: prefix + parsed.path, message: parsed.message }]);
  }
  if (parsed.range === undefined) return parsed.request;
  const list = deps.releases ? await deps.releases.releases(parsed.request.name) : null;
  const newest = list?.status === "ok" ? newestAdmitted(parsed.range, list.releases) : null;
  return { ...parsed.request, version: newest ?? rangeBound(parsed.range) };
}

/** What `c.json` would send: the answer is serialised by {@link evaluationJson} instead. */
const JSON_CONTENT_TYPE = { "content-type": "application/json" };

/** Routes of the Advisor. */
export function evaluateRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get(evaluateRoute.path, async (c) => {
    const query = parseOr400(EvaluateQuerySchema, c.req.query(), "evaluation query");
    const request = await toRequest(deps, query.package, query.version);
    const evaluation = await deps.evaluations.evaluate(request, c.get("context"));
    return c.body(evaluationJson(evaluation), 200, JSON_CONTENT_TYPE);
  });

  routes.post(evaluateBatchRoute.path, async (c) => {
    const body = parseOr400(BatchRequestSchema, await jsonBody(c), "batch request");
    const requests = await Promise.all(
      body.packages.map((item, i) =>
        toRequest(deps, item.package, item.version ?? undefined, `packages[${i}].`)
      ),
    );
    const results = await deps.evaluations.evaluateMany(requests, c.get("context"));
    // Byte for byte `JSON.stringify({ results })`, each remembered decision's text reused.
    return c.body(`{"results":[${results.map(evaluationJson).join(",")}]}`, 200, JSON_CONTENT_TYPE);
  });

  return routes;
}
