/**
 * The policy index routes (issue 28): `/simple/`, `/simple/{name}/`,
 * `/files/{name}/{filename}`, and the same under `/p/{project}/` so
 * decisions and audit rows carry the project. Authentication is the app's
 * (HTTP Basic with a token as the password is read as that token).
 *
 * @module
 */
import { type Context, Hono } from "hono";
import { IndexFileParamsSchema, IndexNameParamsSchema } from "../../api/index.ts";
import { PROJECT_PATTERN } from "../../api/headers.ts";
import { normalizeName } from "../../core/names.ts";
import type { CallContext } from "../../evaluation/service.ts";
import type { IndexService } from "../../index/service.ts";
import { negotiate, type SimpleFormat } from "../../index/negotiate.ts";
import { SIMPLE_JSON } from "../../index/page.ts";
import { matchesIfNoneMatch } from "../../index/etag.ts";
import { renderRootHtml, renderRootJson } from "../../index/render.ts";
import { createPageRenderer, type PageRenderer } from "../../index/rendered.ts";
import type { ProjectDenial } from "../../index/decide_page.ts";
import type { LiveRegistry } from "../../registry/live.ts";
import type { AppEnv } from "../deps.ts";
import { badRequest, ProblemError } from "../problem.ts";
import { parseOr400 } from "../validate.ts";

/** What the index routes need. */
export interface IndexRouteDeps {
  index: IndexService;
  registry: Pick<LiveRegistry, "current">;
  /** Renderings of decided pages (shared with the app's fast path for pages). */
  render?: PageRenderer;
}

const TEXT = "text/plain; charset=utf-8";

function contentType(format: SimpleFormat): string {
  return format === "text/html" ? "text/html; charset=utf-8" : format;
}

function formatOf(c: Context<AppEnv>): SimpleFormat {
  const format = negotiate(c.req.header("accept"));
  if (!format) {
    throw new ProblemError(406, "not-acceptable", "Accept names no simple repository format", {
      errors: [{ path: "Accept", message: `expected ${SIMPLE_JSON} or text/html` }],
    });
  }
  return format;
}

function contextOf(c: Context<AppEnv>): CallContext {
  const project = c.req.param("project") ?? c.get("context").project;
  if (!PROJECT_PATTERN.test(project)) {
    throw badRequest(`invalid project name "${project.slice(0, 60)}"`, [{
      path: "project",
      message: "letters, digits and ._-@:+ only, 1–200 characters",
    }]);
  }
  return { ...c.get("context"), project, source: "index" };
}

function deniedAnswer(denied: ProjectDenial, name: string, format: SimpleFormat): Response {
  const headers = { "content-type": TEXT, vary: "Accept" };
  if (format !== SIMPLE_JSON) {
    return new Response(`policyd: ${denied.reason}\n`, { status: 404, headers });
  }
  const body = {
    meta: { "api-version": "1.4" },
    name,
    files: [],
    ...(denied.status
      ? { "project-status": { status: denied.status, reason: denied.reason } }
      : {}),
    _policyd_reason: denied.reason,
  };
  return new Response(`${JSON.stringify(body)}\n`, {
    status: 404,
    headers: { "content-type": SIMPLE_JSON, vary: "Accept" },
  });
}

/** The index routes, mounted at the server root. */
export function indexRoutes(deps: IndexRouteDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const render = deps.render ?? createPageRenderer();

  const root = (c: Context<AppEnv>) => {
    contextOf(c);
    const format = formatOf(c);
    const names = deps.registry.current().registry.packages
      .filter((p) => p.status !== "banned" && p.status !== "deprecated")
      .map((p) => p.name);
    const body = format === SIMPLE_JSON ? renderRootJson(names) : renderRootHtml(names);
    return c.body(body, 200, { "content-type": contentType(format), vary: "Accept" });
  };

  const redirect = (c: Context<AppEnv>) => {
    contextOf(c);
    const { name } = parseOr400(IndexNameParamsSchema, { name: c.req.param("name") }, "path");
    const path = c.req.path.replace(/[^/]*\/?$/, "");
    return c.redirect(`${path}${normalizeName(name)}/`, 301);
  };

  const page = async (c: Context<AppEnv>) => {
    contextOf(c);
    const { name } = parseOr400(IndexNameParamsSchema, { name: c.req.param("name") }, "path");
    const normal = normalizeName(name);
    if (normal !== name) return c.redirect(c.req.path.replace(/[^/]*\/$/, `${normal}/`), 301);
    const format = formatOf(c);
    const answer = await deps.index.page(name);
    if (answer.status === "not-found") {
      return c.body(`policyd: no project ${name} on the upstream index\n`, 404, {
        "content-type": TEXT,
      });
    }
    if (answer.status === "unavailable") {
      throw new ProblemError(502, "upstream-unavailable", answer.detail);
    }
    if (answer.status === "denied") return deniedAnswer(answer.denied, name, format);
    if (answer.decided.denied) return deniedAnswer(answer.decided.denied, name, format);
    const form = render(answer.decided, name, format === SIMPLE_JSON);
    // A client holding the current page gets a 304 (the ETag is the
    // rendering's, computed once with it, and changes whenever the page would).
    if (matchesIfNoneMatch(c.req.header("if-none-match"), form.etag)) {
      return c.body(null, 304, { vary: "Accept", etag: form.etag });
    }
    return c.body(form.body, 200, {
      "content-type": contentType(format),
      vary: "Accept",
      etag: form.etag,
    });
  };

  const file = async (c: Context<AppEnv>) => {
    const context = contextOf(c);
    const { name, filename } = parseOr400(IndexFileParamsSchema, {
      name: c.req.param("name"),
      filename: c.req.param("filename"),
    }, "path");
    // HEAD (a client probing the file) gets the decision only: no fetch, no audit row.
    const head = c.req.method === "HEAD";
    const answer = await deps.index.download(normalizeName(name), filename, context, head);
    switch (answer.status) {
      case "ok":
        return answer.response;
      case "denied":
        return c.body(`policyd: ${answer.reason}\n`, 403, { "content-type": TEXT });
      case "not-found":
        return c.body(`policyd: ${answer.detail}\n`, 404, { "content-type": TEXT });
      case "unavailable":
        throw new ProblemError(502, "upstream-unavailable", answer.detail);
    }
  };

  for (const prefix of ["", "/p/:project"]) {
    routes.get(`${prefix}/simple/`, root);
    routes.get(`${prefix}/simple/:name/`, page);
    routes.get(`${prefix}/simple/:name`, redirect);
    routes.get(`${prefix}/files/:name/:filename`, file);
  }
  return routes;
}
