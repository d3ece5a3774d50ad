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

/** The strong ETag of a registry snapshot: its version and source content hash. */
export function registryEtag(version: string, contentHash: string): string {
  return `"${encodeURIComponent(version)}.${contentHash.replace(/[^A-Za-z0-9_-]/g, "")}"`;
}

/** Whether an If-None-Match header names `etag` or `*` (weak comparison, RFC 9110 §13.1.2). */
function etagMatches(header: string | undefined, etag: string): boolean {
  return (header ?? "").split(",").some((tag) => {
    const bare = tag.trim().replace(/^W\//, "");
    return bare === "*" || bare === etag;
  });
}

/** Registry routes. */
export function registryRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const compile = parseBudget((deps.http ?? DEFAULT_HTTP_OPTIONS).parseYaml);

  // Clients keep the last snapshot for offline decisions and revalidate with If-None-Match.
  routes.get("/registry", (c) => {
    const snapshot = deps.registry.current();
    const etag = registryEtag(snapshot.registry.version, snapshot.contentHash);
    c.header("etag", etag);
    c.header("cache-control", "no-cache");
    if (etagMatches(c.req.header("if-none-match"), etag)) return c.body(null, 304);
    return c.json(snapshot.registry);
  });

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
