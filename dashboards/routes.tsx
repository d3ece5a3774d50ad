/**
 * The dashboard routes: `/`, the report pages, the registry workshop, its
 * YAML export, and the static assets under `/static/`.
 *
 * Report pages render on the server from the same report functions that
 * back `/api/v1/reports/*` (one source of data, no JavaScript needed); the
 * workshop is an interactive shell whose script talks to the JSON API.
 *
 * @module
 */
import type { Context } from "hono";
import { Hono } from "hono";
import type { JSX } from "hono/jsx/jsx-runtime";
import { agentsReport } from "../src/reports/agents.ts";
import { legalReport } from "../src/reports/legal.ts";
import { securityReport } from "../src/reports/security.ts";
import { REGISTRY_STATUSES } from "../src/core/types.ts";
import type { AppDeps, AppEnv } from "../src/http/deps.ts";
import { ProblemError } from "../src/http/problem.ts";
import { exportRegistryYaml } from "./export.ts";
import { type Chrome, Layout } from "./layout.tsx";
import { PageHeader } from "./components.tsx";
import { parseReportQuery, type ReportQuery, toReportParams } from "./params.ts";
import { AgentsPage } from "./pages/agents.tsx";
import { LegalPage } from "./pages/legal.tsx";
import { RegistryPage } from "./pages/registry.tsx";
import { SecurityPage } from "./pages/security.tsx";
import { WelcomePage } from "./pages/welcome.tsx";
import { STATIC_ASSETS } from "./static/assets.ts";

/**
 * Content-Security-Policy of every page: same-origin only, so a page can
 * never load from a CDN or send data elsewhere. Inline style attributes are
 * allowed for bar widths; inline scripts are not.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join("; ");

function chromeOf(deps: AppDeps): Chrome {
  const registry = deps.registry.current().registry;
  return {
    version: deps.version,
    registryVersion: registry.version,
    packageCount: registry.packages.length,
  };
}

async function page(c: Context<AppEnv>, node: JSX.Element, status: 200 | 400 = 200) {
  const body = "<!DOCTYPE html>" + (await node).toString();
  return c.html(body, status, {
    "content-security-policy": DASHBOARD_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
  });
}

function invalidQuery(c: Context<AppEnv>, deps: AppDeps, active: string, message: string) {
  return page(
    c,
    <Layout title="Invalid query" active={active} chrome={chromeOf(deps)}>
      <PageHeader title="Invalid query" />
      <p class="notice error" role="alert">{message}</p>
      <p>
        <a href={active}>Show the default view</a>
      </p>
    </Layout>,
    400,
  );
}

type ReportPage = (c: Context<AppEnv>, query: ReportQuery, now: Date) => Promise<JSX.Element>;

/** Builds the dashboard routes; mount at `/`. */
export function dashboardRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const now = () => deps.now?.() ?? new Date();

  routes.get("/static/:name", (c) => {
    const asset = STATIC_ASSETS.get(c.req.param("name"));
    if (!asset) throw new ProblemError(404, "not-found", `no static file ${c.req.param("name")}`);
    const headers = {
      "content-type": asset.contentType,
      etag: asset.etag,
      "cache-control": "public, max-age=3600",
      "x-content-type-options": "nosniff",
    };
    if (c.req.header("if-none-match") === asset.etag) return c.body(null, 304, headers);
    return c.body(asset.body, 200, headers);
  });

  routes.get("/", (c) => {
    const snapshot = deps.registry.current().registry;
    const counts = REGISTRY_STATUSES
      .map((status) => ({
        status,
        count: snapshot.packages.filter((p) => p.status === status).length,
      }))
      .filter((s) => s.count > 0);
    return page(
      c,
      <WelcomePage
        view={{
          chrome: chromeOf(deps),
          origin: new URL(c.req.url).origin,
          proposer: deps.proposerName(),
          compiledAt: snapshot.compiled_at,
          statusCounts: counts,
          cveThreshold: snapshot.policies.cve_threshold,
          blockOnCve: snapshot.policies.block_on_cve,
          unknownLicensePolicy: snapshot.policies.unknown_license_policy,
        }}
      />,
    );
  });

  routes.get("/dashboard", (c) => c.redirect("/"));

  const reportPage = (path: string, render: ReportPage) =>
    routes.get(path, async (c) => {
      const parsed = parseReportQuery(c.req.query());
      if (!parsed.ok) return invalidQuery(c, deps, path, parsed.message);
      return page(c, await render(c, parsed.query, now()));
    });

  reportPage("/dashboard/security", async (_c, query, at) => {
    const report = await securityReport(
      deps.store.audit,
      toReportParams(query, at),
      deps.registry.current(),
    );
    return <SecurityPage view={{ chrome: chromeOf(deps), query, report }} />;
  });
  reportPage("/dashboard/legal", async (_c, query, at) => {
    const report = await legalReport(
      deps.store.audit,
      toReportParams(query, at),
      deps.registry.current(),
    );
    return <LegalPage view={{ chrome: chromeOf(deps), query, report }} />;
  });
  reportPage("/dashboard/agents", async (_c, query, at) => {
    const report = await agentsReport(deps.store.audit, toReportParams(query, at));
    return <AgentsPage view={{ chrome: chromeOf(deps), query, report }} />;
  });

  routes.get(
    "/dashboard/registry",
    (c) => page(c, <RegistryPage view={{ chrome: chromeOf(deps) }} />),
  );

  routes.get("/dashboard/registry/export.yaml", (c) => {
    const result = exportRegistryYaml(
      deps.registry.current().registry,
      c.req.queries("rule") ?? [],
      now(),
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

  return routes;
}
