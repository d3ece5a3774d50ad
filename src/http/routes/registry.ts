/**
 * `GET /registry`, `POST /registry/parse-yaml`, `POST /registry/reload`.
 *
 * @module
 */
import { type Context, Hono } from "hono";
import { ParseYamlJsonSchema } from "../../api/registry.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { badRequest, ProblemError } from "../problem.ts";
import { requireOperator } from "../operator.ts";
import { bodyText } from "../validate.ts";
import { parseBudget } from "../parse_budget.ts";
import { DEFAULT_HTTP_OPTIONS } from "../settings.ts";

async function yamlText(c: Context<AppEnv>) {
  const type = c.req.header("content-type") ?? "";
  const text = await bodyText(c);
  if (!type.includes("json")) return text;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw badRequest(`request body is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = ParseYamlJsonSchema.safeParse(body);
  if (!parsed.success) {
    throw badRequest('expected a JSON body {"yaml": "…"} or a text/yaml body', [
      { path: "yaml", message: "required string" },
    ]);
  }
  return parsed.data.yaml;
}

/** Registry routes. */
export function registryRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const compile = parseBudget((deps.http ?? DEFAULT_HTTP_OPTIONS).parseYaml);

  routes.get("/registry", (c) => c.json(deps.registry.current().registry));

  routes.post("/registry/parse-yaml", async (c) => {
    const text = await yamlText(c);
    const compiled = await compile(text, deps.now?.() ?? new Date());
    if (!compiled.ok) {
      throw new ProblemError(422, "invalid-registry", "the registry document is invalid", {
        ok: false,
        errors: compiled.errors,
      });
    }
    return c.json({ ok: true, registry: compiled.registry });
  });

  routes.post("/registry/reload", async (c) => {
    requireOperator(c, deps);
    return c.json(await deps.registry.reload());
  });

  return routes;
}
