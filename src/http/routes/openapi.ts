/**
 * `GET /openapi.json`: an OpenAPI 3.1 description of the API, built from
 * the route contracts in `src/api/`.
 *
 * @module
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import { buildOpenApi } from "../../api/openapi.ts";

/** The OpenAPI route. */
export function openapiRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  let cached: unknown;
  routes.get("/openapi.json", (c) => c.json(cached ??= buildOpenApi(deps.version)));
  return routes;
}
