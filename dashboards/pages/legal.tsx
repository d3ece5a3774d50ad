/**
 * `/dashboard/legal`: the legal report (license-driven denials, license mix,
 * unknown licenses, projects with the most license denials).
 *
 * @module
 */
import type { ActivityReport } from "../../src/reports/activity.ts";
import type { LegalReport } from "../../src/reports/legal.ts";
import type { ReportQuery, VerdictCounts } from "../../src/reports/params.ts";
import { Bars, Card, Empty, PageHeader, ReportFilters, Stats, TableWrap } from "../components.tsx";
import { AuditTable } from "../audit_table.tsx";
import { DataBanner, emptyText, tileCaveat } from "../data_banner.tsx";
import { CategoryBars, TopDenied } from "../denials.tsx";
import { type Chrome, Layout } from "../layout.tsx";

/** View model of the legal page. */
export interface LegalView {
  chrome: Chrome;
  query: ReportQuery;
  report: LegalReport;
  /** Denials of every category. */
  activity: ActivityReport;
}

function LicenseTable(
  props: { rows: Array<{ license: string; verdicts: VerdictCounts }>; testid: string },
) {
  return (
    <TableWrap
      label={props.testid === "unknown-license" ? "Unknown licenses" : "License breakdown"}
    >
      <table data-testid={props.testid} class="sortable">
        <thead>
          <tr>
            <th scope="col">License</th>
            <th scope="col" class="num">Allowed</th>
            <th scope="col" class="num">Provisional</th>
            <th scope="col" class="num">Denied</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr>
              <td>
                <code>{r.license}</code>
              </td>
              <td class="num">{r.verdicts.ALLOWED}</td>
              <td class="num">{r.verdicts.PROVISIONALLY_ALLOWED}</td>
              <td class="num">{r.verdicts.DENIED}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** The legal report page. */
export function LegalPage(props: { view: LegalView }) {
  const { chrome, query, report, activity } = props.view;
  const clear = (sentence: string) => emptyText(report.data_availability, "license", sentence);
  const caveat = tileCaveat(report.data_availability, "license");
  const scope = query.project ? `project ${query.project}` : "all projects";
  return (
    <Layout title="Legal" active="/dashboard/legal" chrome={chrome}>
      <PageHeader title="Legal report">
        License-driven denials and the license mix of evaluated packages over the last {query.days}
        {" "}
        days,{" "}
        {scope}. Packages the registry knows are decided by their rule, not their license, so they
        do not appear in the license mix.
      </PageHeader>
      <ReportFilters action="/dashboard/legal" query={query} apiPath="/api/v1/reports/legal" />
      <DataBanner
        availability={report.data_availability}
        exceptions={report.exceptions}
        kind="license"
      />
      <Stats
        items={[
          {
            label: "License denials",
            value: report.total_denials,
            testid: "total-denials",
            caveat,
          },
          { label: "Licenses seen", value: report.license_breakdown.length, caveat },
          {
            label: "Evaluations with unknown license",
            value: report.unknown_licenses,
            testid: "unknown-licenses",
          },
          {
            label: "Evaluations without license data",
            value: report.license_unavailable,
            testid: "license-unavailable",
          },
          {
            label: "Projects with license denials",
            value: report.top_projects.length,
            testid: "projects-with-denials",
            caveat,
          },
        ]}
      />
      <div class="grid">
        <Card title="Denials by category" hint="License denials beside every other category.">
          <CategoryBars activity={activity} />
        </Card>
        <Card title="Most denied for their license">
          <TopDenied
            activity={activity}
            category="DENIAL_LICENSE"
            availability={report.data_availability}
          />
          <h3>Unknown license</h3>
          <TopDenied
            activity={activity}
            category="DENIAL_LICENSE_UNKNOWN"
            availability={report.data_availability}
          />
        </Card>
      </div>
      <div class="grid">
        <Card title="License breakdown" hint="Evaluations per normalised license and verdict.">
          {report.license_breakdown.length
            ? <LicenseTable rows={report.license_breakdown} testid="license-breakdown" />
            : <Empty>{clear("No evaluation in this window recorded a license.")}</Empty>}
        </Card>
        <Card title="Top projects" hint="Ranked by license-driven denials.">
          {report.top_projects.length
            ? (
              <Bars
                label="License denials per project"
                items={report.top_projects.map((p) => ({ label: p.project, count: p.denials }))}
              />
            )
            : <Empty>{clear("No project had a license denial.")}</Empty>}
        </Card>
      </div>
      <Card
        title="Unknown licenses"
        hint="Packages whose license could not be normalised (UNKNOWN)."
      >
        {report.unknown_license.length
          ? <LicenseTable rows={report.unknown_license} testid="unknown-license" />
          : (
            <Empty>
              {clear(
                "No evaluation in this window recorded a license that could not be normalised.",
              )}
            </Empty>
          )}
      </Card>
      <Card title="Recent license denials" id="denials">
        <AuditTable
          rows={report.recent_denials}
          caption="License-driven denials (denied or unknown license), newest first."
          empty={clear("No license denials in this window.")}
          testid="recent-denials"
        />
      </Card>
    </Layout>
  );
}
