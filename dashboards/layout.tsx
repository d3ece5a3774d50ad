/**
 * The shared page frame of every dashboard: document head, a skip link, the
 * side panel that links all pages, and the main landmark.
 *
 * @module
 */
import type { Child } from "hono/jsx";
import { assetUrl } from "./static/assets.ts";
import { type DashboardStatus, StatusStrip } from "./status_strip.tsx";
import { type ProjectContext, ProjectHint } from "./project_hint.tsx";

/** What the frame shows about the running server. */
export interface Chrome {
  /** policyd version. */
  version: string;
  /** Live registry version. */
  registryVersion: string;
  packageCount: number;
  /** Upstreams and scanner, for the status strip (absent: no strip). */
  status?: DashboardStatus;
  /** Known projects and the filter's project (pages with a project filter). */
  projects?: ProjectContext;
}

/** The pages of the side panel, in order. */
export const NAV_PAGES = [
  { href: "/", label: "Overview" },
  { href: "/dashboard/audit", label: "Audit log" },
  { href: "/dashboard/security", label: "Security" },
  { href: "/dashboard/legal", label: "Legal" },
  { href: "/dashboard/agents", label: "Agents" },
  { href: "/dashboard/requests", label: "Approval requests" },
  { href: "/dashboard/history", label: "Registry history" },
  { href: "/dashboard/alerts", label: "Alerts" },
  { href: "/dashboard/registry", label: "Registry workshop" },
] as const;

const API_LINKS = [
  { href: "/api/v1/health", label: "Health (JSON)" },
  { href: "/api/v1/registry", label: "Registry (JSON)" },
  { href: "/api/v1/openapi.json", label: "OpenAPI" },
  { href: "/api/v1/workflows.md", label: "workflows.md" },
] as const;

/** Props of {@link Layout}. */
export interface LayoutProps {
  title: string;
  /** `href` of the current page in {@link NAV_PAGES}. */
  active: string;
  chrome: Chrome;
  /** Scripts (static asset names) loaded at the end of the body. */
  scripts?: string[];
  children?: Child;
}

/** The page frame: head, side panel, main content. */
export function Layout(props: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title} · policyd</title>
        <link rel="stylesheet" href={assetUrl("app.css")} />
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <div class="shell">
          <aside class="side">
            <div class="brand-row">
              <a class="brand" href="/">
                policyd
                <small>dependency policy service</small>
              </a>
              <button
                type="button"
                class="menu-toggle secondary"
                aria-controls="side-menu"
                aria-expanded="false"
                hidden
              >
                Menu
              </button>
            </div>
            <div class="side-menu" id="side-menu">
              <nav aria-label="Dashboards">
                <h2>Dashboards</h2>
                <ul>
                  {NAV_PAGES.map((page) => (
                    <li>
                      <a
                        href={page.href}
                        aria-current={page.href === props.active ? "page" : undefined}
                      >
                        {page.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
              <nav aria-label="API">
                <h2>API</h2>
                <ul>
                  {API_LINKS.map((link) => (
                    <li>
                      <a href={link.href}>{link.label}</a>
                    </li>
                  ))}
                </ul>
              </nav>
              <dl class="meta">
                <dt>Registry version</dt>
                <dd data-testid="side-registry-version">{props.chrome.registryVersion}</dd>
                <dt>Packages</dt>
                <dd data-testid="side-package-count">{props.chrome.packageCount}</dd>
                <dt>policyd</dt>
                <dd>{props.chrome.version}</dd>
              </dl>
            </div>
          </aside>
          <main id="main" tabindex={-1}>
            {props.chrome.status ? <StatusStrip status={props.chrome.status} /> : null}
            {props.chrome.projects ? <ProjectHint context={props.chrome.projects} /> : null}
            {props.children}
          </main>
        </div>
        {["app.js", ...(props.scripts ?? [])].map((name) => (
          <script key={name} src={assetUrl(name)} defer>
          </script>
        ))}
      </body>
    </html>
  );
}
