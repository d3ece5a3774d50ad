/**
 * The report pages: the overview, security, legal and agents, each parsing
 * the report query and rendering from the same functions as the JSON API.
 *
 * @module
 */
import type { Context, Hono } from "hono";
import type { JSX } from "hono/jsx/jsx-runtime";
import { REGISTRY_STATUSES } from "../src/core/types.ts";
import { activityReport } from "../src/reports/activity.ts";
import { agentsReport } from "../src/reports/agents.ts";
import { agentTrends } from "../src/reports/agent_trends.ts";
import { legalReport } from "../src/reports/legal.ts";
import { parseReportQuery, type ReportQuery, toReportParams } from "../src/reports/params.ts";
import { securityReport } from "../src/reports/security.ts";
import type { DashboardDeps } from "./deps.ts";
import type { PageHelpers } from "./page_helpers.ts";
import { AgentsPage } from "./pages/agents.tsx";
import { LegalPage } from "./pages/legal.tsx";
import { SecurityPage } from "./pages/security.tsx";
import { WelcomePage } from "./pages/welcome.tsx";

// deno-lint-ignore no-explicit-any
type ReportRender = (query: ReportQuery, at: Date, c: Context<any>) => Promise<JSX.Element>;

/** Registers the overview and the report pages. */
// deno-lint-ignore no-explicit-any
export function reportPages(routes: Hono<any>, deps: DashboardDeps, h: PageHelpers): void {
  const reportPage = (path: string, render: ReportRender) =>
    routes.get(path, async (c) => {
      const parsed = parseReportQuery(c.req.query());
      if (!parsed.ok) return h.invalidQuery(c, path, parsed.errors);
      return h.page(c, await render(parsed.query, deps.now(), c));
    });

  reportPage("/", async (query, at, c) => {
    const snapshot = deps.registry.current().registry;
    const params = toReportParams(query, at);
    const [activity, security, legal] = await Promise.all([
      activityReport(deps.audit, params),
      securityReport(deps.audit, params, deps.registry.current()),
      legalReport(deps.audit, params, deps.registry.current()),
    ]);
    return (
      <WelcomePage
        view={{
          chrome: h.chrome(await h.projects(query.project)),
          origin: new URL(c.req.url).origin,
          query,
          activity,
          availability: { security, legal },
          proposer: deps.proposerName(),
          compiledAt: snapshot.compiled_at,
          statusCounts: REGISTRY_STATUSES
            .map((status) => ({
              status,
              count: snapshot.packages.filter((p) => p.status === status).length,
            }))
            .filter((s) => s.count > 0),
          cveThreshold: snapshot.policies.cve_threshold,
          blockOnCve: snapshot.policies.block_on_cve,
          unknownLicensePolicy: snapshot.policies.unknown_license_policy,
        }}
      />
    );
  });

  reportPage("/dashboard/security", async (query, at) => {
    const params = toReportParams(query, at);
    const [report, activity] = await Promise.all([
      securityReport(deps.audit, params, deps.registry.current()),
      activityReport(deps.audit, params),
    ]);
    const chrome = h.chrome(await h.projects(query.project));
    return <SecurityPage view={{ chrome, query, report, activity }} />;
  });
  reportPage("/dashboard/legal", async (query, at) => {
    const params = toReportParams(query, at);
    const [report, activity] = await Promise.all([
      legalReport(deps.audit, params, deps.registry.current()),
      activityReport(deps.audit, params),
    ]);
    const chrome = h.chrome(await h.projects(query.project));
    return <LegalPage view={{ chrome, query, report, activity }} />;
  });
  reportPage("/dashboard/agents", async (query, at) => {
    const params = toReportParams(query, at);
    const [report, trends, filed, projects] = await Promise.all([
      agentsReport(deps.audit, params),
      agentTrends(deps.audit, params),
      deps.review.requests(params.project ? { project: params.project } : {}),
      h.projects(query.project),
    ]);
    const requests: Record<string, { total: number; pending: number }> = {};
    for (const r of filed) {
      if (!r.agent_model) continue;
      const entry = requests[r.agent_model] ??= { total: 0, pending: 0 };
      entry.total++;
      if (r.status === "PENDING_REVIEW") entry.pending++;
    }
    const chrome = h.chrome(projects);
    return <AgentsPage view={{ chrome, query, report, trends, requests }} />;
  });
}
