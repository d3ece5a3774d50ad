/**
 * `/dashboard/security`: the security report (CVE denials, severities, top
 * packages and CVEs, hot registry packages, scanner alerts).
 *
 * @module
 */
import type { SecurityReport } from "../../src/reports/security.ts";
import {
  AuditTable,
  Badge,
  Bars,
  Card,
  Empty,
  PageHeader,
  ReportFilters,
  Stats,
} from "../components.tsx";
import { type Chrome, Layout } from "../layout.tsx";
import { DataBanner, emptyText } from "../data_banner.tsx";
import type { ReportQuery } from "../params.ts";

/** View model of the security page. */
export interface SecurityView {
  chrome: Chrome;
  query: ReportQuery;
  report: SecurityReport;
}

const SEVERITIES = ["critical", "high", "medium", "low", "unknown"] as const;

/** The security report page. */
export function SecurityPage(props: { view: SecurityView }) {
  const { chrome, query, report } = props.view;
  const scope = query.project ? `project ${query.project}` : "all projects";
  const clear = (sentence: string) =>
    emptyText(report.data_availability, "vulnerabilities", sentence);
  return (
    <Layout title="Security" active="/dashboard/security" chrome={chrome}>
      <PageHeader title="Security report">
        CVE-driven denials over the last {query.days} days,{" "}
        {scope}. Scanner alerts are listed apart and never counted as denials.
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
          { label: "CVE denials", value: report.total_denials, testid: "total-denials" },
          { label: "Critical", value: report.severity_distribution.critical },
          { label: "Packages denied", value: report.top_packages.length },
          { label: "Recent scanner alerts", value: report.recent_alerts.length },
        ]}
      />
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
          hint="Allowed by the registry, yet recently denied for a CVE or evaluated provisionally."
        >
          {report.hot_registry_packages.length
            ? (
              <div class="table-wrap">
                <table data-testid="hot-packages">
                  <thead>
                    <tr>
                      <th scope="col">Package</th>
                      <th scope="col">Status</th>
                      <th scope="col" class="num">CVE denials</th>
                      <th scope="col" class="num">Provisional</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.hot_registry_packages.map((p) => (
                      <tr>
                        <td>
                          <code>{p.package}</code>
                        </td>
                        <td>
                          <Badge kind={p.registry_status} />
                        </td>
                        <td class="num">{p.cve_denials}</td>
                        <td class="num">{p.provisional}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
            : <Empty>{clear("No registry package needs attention.")}</Empty>}
        </Card>
      </div>
      <div class="grid">
        <Card title="Top packages">
          {report.top_packages.length
            ? (
              <div class="table-wrap">
                <table data-testid="top-packages">
                  <thead>
                    <tr>
                      <th scope="col">Package</th>
                      <th scope="col" class="num">Denials</th>
                      <th scope="col" class="num">Max CVSS</th>
                      <th scope="col">CVEs</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.top_packages.map((p) => (
                      <tr>
                        <td>
                          <code>{p.package}</code>
                        </td>
                        <td class="num">{p.denials}</td>
                        <td class="num">{p.max_cvss?.toFixed(1) ?? "—"}</td>
                        <td>{p.cve_ids.join(", ")}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
            : <Empty>{clear("No CVE denials in this window.")}</Empty>}
        </Card>
        <Card title="Top CVEs">
          {report.top_cves.length
            ? (
              <div class="table-wrap">
                <table data-testid="top-cves">
                  <thead>
                    <tr>
                      <th scope="col">CVE</th>
                      <th scope="col" class="num">Denials</th>
                      <th scope="col">Packages</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.top_cves.map((c) => (
                      <tr>
                        <td>
                          <code>{c.cve}</code>
                        </td>
                        <td class="num">{c.denials}</td>
                        <td>{c.packages.join(", ")}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
            : <Empty>{clear("No CVEs behind denials in this window.")}</Empty>}
        </Card>
      </div>
      <Card title="Recent scanner alerts" id="alerts">
        <AuditTable
          rows={report.recent_alerts}
          caption="Written by the background CVE scanner for registry packages, newest first."
          empty="The scanner has raised no alerts in this window."
          testid="recent-alerts"
        />
      </Card>
      <Card title="Recent denials" id="denials">
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
