/**
 * `/dashboard/security`: the security report (CVE denials, severities, top
 * packages and CVEs, hot registry packages, scanner alerts).
 *
 * @module
 */
import type { ActivityReport } from "../../src/reports/activity.ts";
import type { ReportQuery } from "../../src/reports/params.ts";
import type { SecurityReport } from "../../src/reports/security.ts";
import { Badge, Bars, Card, Empty, PageHeader, ReportFilters, Stats } from "../components.tsx";
import { AuditTable } from "../audit_table.tsx";
import { DataTable, PackageCell } from "../data_table.tsx";
import { DataBanner, emptyText, tileCaveat } from "../data_banner.tsx";
import { scannerSentence } from "../status_strip.tsx";
import { CategoryBars, DenialsPerDay, TopDenied } from "../denials.tsx";
import { ThreatsCard } from "../threats.tsx";
import { type Chrome, Layout } from "../layout.tsx";

/** View model of the security page. */
export interface SecurityView {
  chrome: Chrome;
  query: ReportQuery;
  report: SecurityReport;
  /** Denials of every category, for the registry-rule sections. */
  activity: ActivityReport;
}

/** Registry rule categories, shown on the security page beside CVE denials. */
const RULE_CATEGORIES = [
  "DENIAL_BANNED",
  "DENIAL_DEPRECATED",
  "DENIAL_VERSION_CONSTRAINT",
] as const;

const SEVERITIES = ["critical", "high", "medium", "low", "unknown"] as const;

/** The security report page. */
export function SecurityPage(props: { view: SecurityView }) {
  const { chrome, query, report, activity } = props.view;
  const scope = query.project ? `project ${query.project}` : "all projects";
  const clear = (sentence: string) =>
    emptyText(report.data_availability, "vulnerabilities", sentence);
  const caveat = tileCaveat(report.data_availability, "vulnerabilities");
  const status = chrome.status;
  const scanner = status ? scannerSentence(status.scanner, status.upstreams.osv) : null;
  const ruleDenials = RULE_CATEGORIES.reduce(
    (n, c) => n + activity.totals.denials_by_category[c],
    0,
  );
  return (
    <Layout title="Security" active="/dashboard/security" chrome={chrome}>
      <PageHeader title="Security report">
        Denials over the last {query.days} days,{" "}
        {scope}: CVE denials and registry rule denials (banned, deprecated, version constraint).
        Scanner alerts are listed apart and never counted as denials.
      </PageHeader>
      <ReportFilters
        action="/dashboard/security"
        query={query}
        apiPath="/api/v1/reports/security"
      />
      <DataBanner
        availability={report.data_availability}
        exceptions={report.exceptions}
        kind="vulnerabilities"
      />
      <Stats
        items={[
          {
            label: "CVE denials",
            value: report.total_denials,
            testid: "total-denials",
            caveat,
          },
          { label: "Registry rule denials", value: ruleDenials, testid: "rule-denials" },
          {
            label: "Critical CVE denials",
            value: report.severity_distribution.critical,
            testid: "critical",
            caveat,
          },
          { label: "Packages denied for CVEs", value: report.top_packages.length, caveat },
          { label: "Recent scanner alerts", value: report.recent_alerts.length },
        ]}
      />
      <div class="grid">
        <Card title="Denials by category" hint="Every category, license denials included.">
          <CategoryBars activity={activity} />
        </Card>
        <Card title="Denials per day">
          <DenialsPerDay activity={activity} />
        </Card>
      </div>
      <Card
        title="Registry rule denials"
        id="rule-denials"
        hint="Packages the registry bans, deprecates, or allows only in a version range."
      >
        <div class="grid compact">
          {RULE_CATEGORIES.map((category) => (
            <section aria-labelledby={`rule-${category}`}>
              <h3 id={`rule-${category}`}>
                {category === "DENIAL_BANNED"
                  ? "Banned"
                  : category === "DENIAL_DEPRECATED"
                  ? "Deprecated"
                  : "Outside the allowed versions"}{" "}
                <span class="muted">({activity.totals.denials_by_category[category]})</span>
              </h3>
              <TopDenied activity={activity} category={category} />
            </section>
          ))}
        </div>
      </Card>
      <div class="grid">
        <Card
          title="Severity distribution"
          hint="CVSS v3 bands: critical ≥ 9.0, high 7.0–8.9, medium 4.0–6.9, low 0.1–3.9."
        >
          <Bars
            label="Denials per severity"
            items={SEVERITIES.map((s) => ({
              label: s,
              count: report.severity_distribution[s],
              kind: s,
            }))}
          />
        </Card>
        <Card
          title="Hot registry packages"
          hint="Allowed by the registry, yet denied for a CVE or evaluated provisionally while listed."
        >
          {report.hot_registry_packages.length
            ? (
              <DataTable
                label="Hot registry packages"
                testid="hot-packages"
                columns={[
                  { title: "Package" },
                  { title: "Status" },
                  { title: "CVE denials", num: true },
                  { title: "Provisional", num: true },
                ]}
                rows={report.hot_registry_packages}
                cells={(p) => (
                  <>
                    <PackageCell name={p.package} />
                    <td>
                      <Badge kind={p.registry_status} />
                    </td>
                    <td class="num">{p.cve_denials}</td>
                    <td class="num">{p.provisional}</td>
                  </>
                )}
              />
            )
            : (
              <Empty>
                {clear(
                  "No allowed registry package was denied for a CVE or evaluated provisionally in this window.",
                )}
              </Empty>
            )}
        </Card>
      </div>
      <div class="grid">
        <Card title="Top packages">
          {report.top_packages.length
            ? (
              <DataTable
                label="Top packages"
                testid="top-packages"
                columns={[
                  { title: "Package" },
                  { title: "Denials", num: true },
                  { title: "Max CVSS", num: true },
                  { title: "CVEs" },
                ]}
                rows={report.top_packages}
                cells={(p) => (
                  <>
                    <PackageCell name={p.package} />
                    <td class="num">{p.denials}</td>
                    <td class="num">{p.max_cvss?.toFixed(1) ?? "—"}</td>
                    <td>{p.cve_ids.join(", ")}</td>
                  </>
                )}
              />
            )
            : <Empty>{clear("No CVE denials in this window.")}</Empty>}
        </Card>
        <Card title="Top CVEs">
          {report.top_cves.length
            ? (
              <DataTable
                label="Top CVEs"
                testid="top-cves"
                columns={[{ title: "CVE" }, { title: "Denials", num: true }, { title: "Packages" }]}
                rows={report.top_cves}
                cells={(c) => (
                  <>
                    <td>
                      <a href={`https://osv.dev/vulnerability/${encodeURIComponent(c.cve)}`}>
                        <code>{c.cve}</code>
                      </a>
                    </td>
                    <td class="num">{c.denials}</td>
                    <td>{c.packages.join(", ")}</td>
                  </>
                )}
              />
            )
            : <Empty>{clear("No CVEs behind denials in this window.")}</Empty>}
        </Card>
      </div>
      <ThreatsCard summary={report.threats} />
      <Card
        title="Recent scanner alerts"
        id="alerts"
        hint={scanner ?? "The scanner's state is not known to this page."}
      >
        <AuditTable
          rows={report.recent_alerts}
          caption="Written by the background CVE scanner for registry packages, newest first."
          empty="No scanner alert in this window (the scanner's last pass is described above)."
          testid="recent-alerts"
        />
      </Card>
      <Card title="Recent CVE denials" id="denials">
        <AuditTable
          rows={report.recent_denials}
          caption="CVE-driven denials, newest first."
          empty={clear("No CVE denials in this window.")}
          testid="recent-denials"
        />
      </Card>
    </Layout>
  );
}
