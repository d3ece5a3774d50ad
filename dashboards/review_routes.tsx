/**
 * The review pages of issue #31, `/dashboard/requests` and
 * `/dashboard/history`, registered on the dashboard routes.
 *
 * @module
 */
import type { Hono } from "hono";
import type { DashboardDeps } from "./deps.ts";
import type { PageHelpers } from "./page_helpers.ts";
import { HistoryPage } from "./pages/history.tsx";
import { RequestsPage } from "./pages/requests.tsx";
import { parseHistoryQuery, parseRequestsQuery } from "./review_query.ts";

/** Most requests the page lists (newest first). */
const MAX_REQUESTS = 500;
/** Change-log entries per page. */
const HISTORY_PAGE = 50;

/** Registers the requests and history pages. */
// deno-lint-ignore no-explicit-any
export function reviewPages(routes: Hono<any>, deps: DashboardDeps, h: PageHelpers): void {
  routes.get("/dashboard/requests", async (c) => {
    const parsed = parseRequestsQuery(c.req.query());
    if (!parsed.ok) return h.invalidQuery(c, "/dashboard/requests", parsed.errors);
    const q = parsed.query;
    const all = await deps.review.requests({});
    const projects = [...new Set(all.map((r) => r.project))].sort();
    const matching = all.filter((r) =>
      (!q.project || q.project === "*" || r.project === q.project) &&
      (!q.package || r.package === q.package) &&
      (!q.agent_model || (r.agent_model ?? "").toLowerCase().startsWith(q.agent_model)) &&
      (!q.source || r.source === q.source)
    );
    const counts: Record<string, number> = {};
    for (const r of matching) counts[r.status] = (counts[r.status] ?? 0) + 1;
    const rows = matching.filter((r) => q.status === "all" || r.status === q.status);
    const byName = deps.registry.current().byName;
    const live: Record<string, string> = {};
    for (const r of rows) {
      const rule = byName.get(r.package);
      if (rule) live[r.package] = rule.status;
    }
    return h.page(
      c,
      <RequestsPage
        view={{
          chrome: h.chrome(),
          query: q,
          rows: rows.slice(0, MAX_REQUESTS),
          truncated: rows.length > MAX_REQUESTS,
          counts,
          projects,
          now: deps.now(),
          proposer: deps.proposerName(),
          live,
        }}
      />,
    );
  });

  routes.get("/dashboard/history", async (c) => {
    const parsed = parseHistoryQuery(c.req.query());
    if (!parsed.ok) return h.invalidQuery(c, "/dashboard/history", parsed.errors);
    const q = parsed.query;
    const found = await deps.review.changes({
      ...(q.package ? { package: q.package } : {}),
      ...(q.before ? { beforeId: q.before } : {}),
    }, HISTORY_PAGE + 1);
    const page = found.slice(0, HISTORY_PAGE);
    const live = deps.registry.current().byName;
    const entries = page.map((e) => {
      const rule = live.get(e.package);
      const current = rule
        ? JSON.stringify(Object.fromEntries(
          Object.entries(rule).filter(([, v]) => v !== undefined && v !== ""),
        ))
        : "null";
      const revertible = (e.kind === "applied" || e.kind === "reloaded") &&
        current === JSON.stringify(e.after);
      return { ...e, revertible };
    });
    return h.page(
      c,
      <HistoryPage
        view={{
          chrome: h.chrome(),
          query: q,
          entries,
          nextBefore: found.length > HISTORY_PAGE ? page[page.length - 1].id : null,
          proposer: deps.proposerName(),
        }}
      />,
    );
  });
}
