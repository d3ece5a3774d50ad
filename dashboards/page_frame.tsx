/**
 * The frame every dashboard page shares: the security headers, the chrome
 * (versions, status strip, project context) and the error pages (400, 404,
 * 500) that can render without anything that may fail again.
 *
 * @module
 */
import type { Context } from "hono";
import type { JSX } from "hono/jsx/jsx-runtime";
import type { QueryIssue } from "../src/reports/params.ts";
import type { DashboardDeps } from "./deps.ts";
import { type Chrome, Layout } from "./layout.tsx";
import type { ProjectContext } from "./project_hint.tsx";
import { PageHeader } from "./components.tsx";

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

/** Per-request values the host app may set (request id, logger); both optional. */
export interface DashboardEnv {
  Variables: {
    requestId?: string;
    log?: { error(message: string, fields?: Record<string, unknown>): void };
  };
}

/** A dashboard request's context. */
export type Ctx = Context<DashboardEnv>;

/** The frame of a page: versions, registry size, status strip and project context. */
export function chromeOf(deps: DashboardDeps, projects?: ProjectContext): Chrome {
  const registry = deps.registry.current().registry;
  return {
    version: deps.version,
    registryVersion: registry.version,
    packageCount: registry.packages.length,
    ...(deps.status ? { status: deps.status() } : {}),
    ...(projects ? { projects } : {}),
  };
}

/** The frame of an error page: no status strip, nothing that can fail again. */
export function bareChrome(deps: DashboardDeps): Chrome {
  const { status: _status, ...chrome } = chromeOf(deps);
  return chrome;
}

/** Every project the audit log knows, sorted, with the filter's project. */
export async function projectsOf(
  deps: DashboardDeps,
  asked: string | null | undefined,
): Promise<ProjectContext> {
  const groups = await deps.audit.group({}, ["project"]);
  const known = groups.map((g) => g.keys.project).filter((p): p is string => !!p).sort();
  return { known, asked: asked ?? null };
}

/** An HTML page with the dashboards' security and caching headers. */
export async function page(c: Ctx, node: JSX.Element, status: 200 | 400 | 404 | 500 = 200) {
  const body = "<!DOCTYPE html>" + (await node).toString();
  return c.html(body, status, {
    "content-security-policy": DASHBOARD_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
  });
}

/** The 400 page of a query a page cannot use. */
export function invalidQuery(c: Ctx, deps: DashboardDeps, active: string, errors: QueryIssue[]) {
  return page(
    c,
    <Layout title="Invalid query" active={active} chrome={bareChrome(deps)}>
      <PageHeader title="Invalid query" />
      <div class="notice error" role="alert">
        <p>The address has a parameter this page cannot use:</p>
        <ul>
          {errors.map((e) => (
            <li>
              Invalid <code>{e.path}</code>: {e.message}
            </li>
          ))}
        </ul>
      </div>
      <p>
        <a href={active}>Show the default view</a>
      </p>
    </Layout>,
    400,
  );
}

/** The 404 page of an unknown dashboard path. */
export function notFoundPage(c: Ctx, deps: DashboardDeps) {
  return page(
    c,
    <Layout title="Page not found" active="" chrome={bareChrome(deps)}>
      <PageHeader title="Page not found" />
      <p class="notice warn" role="alert">
        There is no dashboard page at <code>{c.req.path}</code>.
      </p>
      <p>
        Try the <a href="/">overview</a>, the <a href="/dashboard/audit">audit log</a>{" "}
        or a package page such as <a href="/dashboard/package/requests">requests</a>.
      </p>
    </Layout>,
    404,
  );
}

/** The 500 page, quoting the request id. */
export function errorPage(c: Ctx, deps: DashboardDeps) {
  const requestId = c.get("requestId") ?? "unknown";
  return page(
    c,
    <Layout title="Something went wrong" active="" chrome={bareChrome(deps)}>
      <PageHeader title="Something went wrong" />
      <p class="notice error" role="alert">
        policyd could not build this page. The error is in the server log; quote request id{" "}
        <code>{requestId}</code> when reporting it.
      </p>
      <p>
        <a href={c.req.path}>Try again</a> or go to the <a href="/">overview</a>.
      </p>
    </Layout>,
    500,
  );
}
