/**
 * The dashboard routes: the overview, the audit-log browser, one page per
 * package, the report pages, the registry workshop and its YAML export, the
 * static assets under `/static/` and the favicon. Unknown `/dashboard/…`
 * paths and failures answer HTML pages.
 *
 * Pages render on the server from the same report functions that back the
 * JSON API (one source of data, no JavaScript needed); the workshop is an
 * interactive shell whose script talks to the JSON API. The routes see the
 * server only through {@link DashboardDeps}; the app mounts them through its
 * extension point.
 *
 * @module
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { DistributionNameSchema } from "../src/api/names.ts";
import { ProblemError } from "../src/api/problem.ts";
import {
  auditCsv,
  auditExportRows,
  auditPage,
  type AuditQuery,
  parseAuditQuery,
} from "../src/reports/audit_log.ts";
import { packageReport } from "../src/reports/package.ts";
import type { QueryIssue } from "../src/reports/params.ts";
import type { DashboardDeps } from "./deps.ts";
import { exportRegistryYaml } from "./export.ts";
import { reviewPages } from "./review_routes.tsx";
import { reportPages } from "./report_pages.tsx";
import type { PageHelpers } from "./page_helpers.ts";
import {
  chromeOf,
  type Ctx,
  type DashboardEnv,
  errorPage,
  invalidQuery,
  notFoundPage,
  page,
  projectsOf,
} from "./page_frame.tsx";

import { AlertsPage } from "./pages/alerts.tsx";
import { AuditPage } from "./pages/audit.tsx";
import { PackagePage } from "./pages/package.tsx";
import { RegistryPage } from "./pages/registry.tsx";
import { faviconIco } from "./static/favicon.ts";
import { STATIC_ASSETS } from "./static/assets.ts";

export { DASHBOARD_CSP } from "./page_frame.tsx";

/**
 * `If-None-Match` uses the weak comparison (RFC 9110 §13.1.2): a compressed
 * answer's `W/"…"` tag matches the asset's strong one, and a list may be sent.
 */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.trim() === "*" || header.split(",").some((tag) => bare(tag) === bare(etag));
}

const FAVICON = faviconIco();

/** Builds the dashboard routes; mount at `/`. */
export function dashboardRoutes(deps: DashboardDeps): Hono<DashboardEnv> {
  const routes = new Hono<DashboardEnv>();
  const helpers: PageHelpers = {
    page: (c, node) => page(c, node),
    invalidQuery: (c, active, errors) => invalidQuery(c, deps, active, errors),
    chrome: (projects) => chromeOf(deps, projects),
    projects: (asked) => projectsOf(deps, asked),
  };

  routes.onError((error, c) => {
    // Problems (the exports' bad queries) go to the app's handler: problem+json, redacted.
    if (error instanceof ProblemError) throw error;
    c.get("log")?.error("dashboard error", {
      path: c.req.path,
      error: String(error),
      stack: (error as Error)?.stack,
    });
    return errorPage(c, deps);
  });

  routes.get("/static/:name", (c) => {
    const asset = STATIC_ASSETS.get(c.req.param("name"));
    if (!asset) throw new ProblemError(404, "not-found", `no static file ${c.req.param("name")}`);
    const headers = {
      "content-type": asset.contentType,
      etag: asset.etag,
      "cache-control": "public, max-age=3600",
      "x-content-type-options": "nosniff",
    };
    if (etagMatches(c.req.header("if-none-match"), asset.etag)) return c.body(null, 304, headers);
    return c.body(asset.body, 200, headers);
  });

  routes.get("/favicon.ico", (c) =>
    c.body(FAVICON.slice().buffer, 200, {
      "content-type": "image/x-icon",
      "cache-control": "public, max-age=86400",
    }));

  reportPages(routes, deps, helpers);

  routes.get("/dashboard", (c) => c.redirect("/"));
  routes.get("/dashboard/", (c) => c.redirect("/"));

  const auditQuery = (
    c: Ctx,
  ): { ok: true; query: AuditQuery } | { ok: false; errors: QueryIssue[] } =>
    parseAuditQuery(c.req.query());

  routes.get("/dashboard/audit", async (c) => {
    const parsed = auditQuery(c);
    if (!parsed.ok) return invalidQuery(c, deps, "/dashboard/audit", parsed.errors);
    const [result, projects] = await Promise.all([
      auditPage(deps.audit, parsed.query, deps.now()),
      projectsOf(deps, parsed.query.project),
    ]);
    return page(
      c,
      <AuditPage
        view={{
          chrome: chromeOf(deps, projects),
          query: parsed.query,
          raw: c.req.query(),
          page: result,
        }}
      />,
    );
  });

  const exportAudit = (format: "csv" | "json") => async (c: Ctx) => {
    const parsed = auditQuery(c);
    if (!parsed.ok) {
      throw new ProblemError(400, "invalid-request", "invalid audit query", {
        errors: parsed.errors,
      });
    }
    const rows = await auditExportRows(deps.audit, parsed.query, deps.now());
    const stamp = deps.now().toISOString().slice(0, 10);
    const csv = format === "csv";
    return c.body(csv ? auditCsv(rows) : JSON.stringify({ items: rows }, null, 2), 200, {
      "content-type": csv ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="policyd-audit-${stamp}.${
        csv ? "csv" : "json"
      }"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
  };
  routes.get("/dashboard/audit/export.csv", exportAudit("csv"));
  routes.get("/dashboard/audit/export.json", exportAudit("json"));

  routes.get("/dashboard/package/:name", async (c) => {
    const name = c.req.param("name");
    if (!DistributionNameSchema.safeParse(name).success) return notFoundPage(c, deps);
    const report = await packageReport(deps.audit, deps.registry.current(), name, 50);
    return page(
      c,
      <PackagePage
        view={{
          chrome: chromeOf(deps),
          report,
          proposer: deps.proposerName(),
          registry: deps.registry.current().registry,
        }}
      />,
    );
  });

  routes.get(
    "/dashboard/registry",
    (c) => page(c, <RegistryPage view={{ chrome: chromeOf(deps) }} />),
  );

  reviewPages(routes, deps, helpers);

  routes.get("/dashboard/registry/export.yaml", (c) => {
    const result = exportRegistryYaml(
      deps.registry.current().registry,
      c.req.queries("rule") ?? [],
      deps.now(),
    );
    if (!result.ok) {
      throw new ProblemError(400, "invalid-request", "a proposed rule of the export is invalid", {
        errors: result.errors,
      });
    }
    return c.body(result.yaml, 200, {
      "content-type": "application/yaml; charset=utf-8",
      "content-disposition": 'attachment; filename="registry.yaml"',
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
  });

  const NOTICES: Record<string, string> = {
    "retry": "The delivery is due again.",
    "mute": "The delivery is muted.",
    "forbidden": "Only operators may retry or mute alerts.",
    "not-found": "No such delivery.",
    "delivered": "That delivery already went out.",
  };
  routes.get("/dashboard/alerts", async (c) => {
    const alerts = deps.alerts;
    const [rows, backlog] = alerts
      ? await Promise.all([alerts.list(200), alerts.backlog()])
      : [[], { pending: 0, dead: 0, oldest_pending_at: null }];
    const notice = NOTICES[c.req.query("done") ?? ""] ?? null;
    return page(
      c,
      <AlertsPage
        view={{
          chrome: chromeOf(deps),
          rows,
          backlog,
          destinations: alerts?.destinations ?? [],
          notice,
        }}
      />,
    );
  });
  routes.post("/dashboard/alerts/:id/:action{retry|mute}", async (c) => {
    const id = Number(c.req.param("id"));
    const action = c.req.param("action") as "retry" | "mute";
    if (!deps.alerts || !Number.isSafeInteger(id) || id < 1) return notFoundPage(c, deps);
    const outcome = await deps.alerts.act(
      { identity: (c as unknown as Context).get("identity") },
      id,
      action,
    );
    return c.redirect(`/dashboard/alerts?done=${outcome === "done" ? action : outcome}`, 303);
  });

  routes.all("/dashboard/*", (c) => notFoundPage(c, deps));

  return routes;
}
