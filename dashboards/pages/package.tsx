/**
 * `/dashboard/package/:name`: one package. Its registry rule and
 * replacement, the latest decision of every project that asked for it, the
 * CVEs (linked to OSV) and license of its latest evaluations, registry
 * exceptions, its history, and a button to propose a rule.
 *
 * @module
 */
import { proposerSentence } from "../review_labels.ts";
import { emptyDataSentence, tallyData } from "../package_data.ts";
import { isValidName } from "../../src/core/names.ts";
import type { CompiledRegistry } from "../../src/core/types.ts";
import type { PackageReport } from "../../src/reports/package.ts";
import {
  Badge,
  Card,
  categoryLabel,
  Empty,
  formatTime,
  PackageLink,
  PageHeader,
  Time,
} from "../components.tsx";
import { AuditTable } from "../audit_table.tsx";
import { type Column, DataTable } from "../data_table.tsx";
import { type Chrome, Layout } from "../layout.tsx";
import { PackageThreatsCard } from "../threats.tsx";

/** View model of a package page. */
export interface PackageView {
  chrome: Chrome;
  report: PackageReport;
  proposer: string;
  /** The live registry, for its exceptions (when the registry has any). */
  registry: CompiledRegistry;
}

/** The OSV page of a vulnerability id. */
export function osvUrl(id: string): string {
  return `https://osv.dev/vulnerability/${encodeURIComponent(id)}`;
}

function versions(rule: { min_version?: string; max_version?: string }): string {
  if (!rule.min_version && !rule.max_version) return "any version";
  return [
    rule.min_version ? `≥ ${rule.min_version}` : "",
    rule.max_version ? `≤ ${rule.max_version}` : "",
  ].filter(Boolean).join(", ");
}

function RuleCard(props: { report: PackageReport; proposer: string }) {
  const { rule, name } = props.report;
  const propose = `/dashboard/registry?package=${encodeURIComponent(name)}#propose`;
  return (
    <Card title="Registry rule" id="rule">
      {rule
        ? (
          <dl class="facts" data-testid="package-rule">
            <dt>Status</dt>
            <dd>
              <Badge kind={rule.status} />
            </dd>
            <dt>Versions</dt>
            <dd>{versions(rule)}</dd>
            <dt>Reason</dt>
            <dd>{rule.reason ?? "—"}</dd>
            <dt>Replacement</dt>
            <dd data-testid="package-replacement">
              {rule.replacement
                ? isValidName(rule.replacement)
                  ? <PackageLink name={rule.replacement} />
                  : rule.replacement
                : "—"}
            </dd>
          </dl>
        )
        : (
          <p data-testid="package-rule">
            The registry has no rule for{" "}
            <code>{name}</code>: evaluations look up its CVEs and license and answer by policy.
          </p>
        )}
      {props.report.replaces.length
        ? (
          <p>
            Suggested as the replacement of {props.report.replaces.map((n, i) => (
              <>
                {i ? ", " : ""}
                <PackageLink name={n} />
              </>
            ))}.
          </p>
        )
        : null}
      <p class="row">
        <a class="button" href={propose} data-testid="propose-rule">
          {rule ? "Propose a rule change" : "Propose a rule"}
        </a>
        <span class="muted" title={`proposer: ${props.proposer}`}>
          In the workshop {proposerSentence(props.proposer)}.
        </span>
      </p>
    </Card>
  );
}

const PROJECT_COLUMNS: Column[] = ["Project", "Verdict", "Version", "When"].map((title) => ({
  title,
}));

function ProjectCells(props: { row: PackageReport["projects"][number] }) {
  const { row } = props;
  return (
    <>
      <td data-label="Project">{row.project}</td>
      <td data-label="Verdict">
        <Badge kind={row.verdict} />
        {row.denial_category ? <div class="muted">{categoryLabel(row.denial_category)}</div> : null}
      </td>
      <td data-label="Version">{row.version ?? "any"}</td>
      <td data-label="When" data-sort={row.ts}>
        <Time iso={row.ts} />
      </td>
    </>
  );
}

function ProjectsCard(props: { report: PackageReport }) {
  const rows = props.report.projects;
  return (
    <Card
      title="Latest decision per project"
      id="projects"
      hint="Every project that asked for this package, with its newest evaluation."
    >
      {rows.length
        ? (
          <DataTable
            label="Latest decision per project"
            testid="package-projects"
            class="cards"
            columns={PROJECT_COLUMNS}
            rows={rows}
            cells={(row) => <ProjectCells row={row} />}
          />
        )
        : <Empty>No project has asked for this package yet.</Empty>}
    </Card>
  );
}

function VulnerabilitiesCard(props: { report: PackageReport }) {
  const { cves } = props.report;
  return (
    <Card title="Vulnerabilities" id="cves">
      {cves.ids.length
        ? (
          <>
            <p class="hint">
              From the newest evaluation that found any ({formatTime(cves.seen_at)}), highest CVSS
              {" "}
              {cves.max_cvss?.toFixed(1) ?? "unknown"}.
            </p>
            <ul data-testid="package-cves">
              {cves.ids.map((id) => (
                <li>
                  <a href={osvUrl(id)}>
                    <code>{id}</code>
                  </a>
                </li>
              ))}
            </ul>
          </>
        )
        : (
          <Empty>
            {emptyDataSentence(
              tallyData(props.report.history, "vulnerabilities"),
              "vulnerabilities",
            )}
          </Empty>
        )}
    </Card>
  );
}

function LicenseCard(props: { report: PackageReport }) {
  const { license } = props.report;
  return (
    <Card title="License" id="license">
      {license
        ? (
          <dl class="facts" data-testid="package-license">
            <dt>License</dt>
            <dd>
              <code>{license.license}</code>
            </dd>
            <dt>As published</dt>
            <dd>{license.license_raw ?? "—"}</dd>
            <dt>Seen</dt>
            <dd>{formatTime(license.seen_at)}</dd>
          </dl>
        )
        : <Empty>{emptyDataSentence(tallyData(props.report.history, "license"), "license")}</Empty>}
    </Card>
  );
}

function ExceptionsOfPackage(props: { registry: CompiledRegistry; name: string }) {
  const mine = props.registry.exceptions.filter((e) => e.package === props.name);
  return (
    <Card title="Exceptions" id="exceptions">
      {mine.length
        ? (
          <ul data-testid="package-exceptions">
            {mine.map((e) => (
              <li>
                {[
                  ...(e.vulnerabilities ?? []),
                  ...(e.licenses ?? []).map((l) => `license ${l}`),
                ].join(", ")}
                {e.versions ? ` (versions ${e.versions})` : ""} until {e.expires}
                {e.reason ? ` — ${e.reason}` : ""}
              </li>
            ))}
          </ul>
        )
        : <Empty>The registry grants this package no exception.</Empty>}
    </Card>
  );
}

/** A package page. */
export function PackagePage(props: { view: PackageView }) {
  const { chrome, report } = props.view;
  return (
    <Layout title={report.name} active="" chrome={chrome}>
      <PageHeader title={report.name}>
        {report.rule ? <Badge kind={report.rule.status} /> : <Badge kind="unlisted" />}{" "}
        {report.total} recorded {report.total === 1 ? "decision" : "decisions"},{" "}
        {report.projects.length} {report.projects.length === 1 ? "project" : "projects"}.
      </PageHeader>
      <div class="grid">
        <RuleCard report={report} proposer={props.view.proposer} />
        <ProjectsCard report={report} />
      </div>
      <div class="grid">
        <VulnerabilitiesCard report={report} />
        <LicenseCard report={report} />
        <ExceptionsOfPackage registry={props.view.registry} name={report.name} />
        <PackageThreatsCard rows={report.history} />
      </div>
      <Card title="History" id="history">
        <AuditTable
          rows={report.history}
          caption="Evaluations and scanner alerts of this package, newest first."
          empty="policyd has no record of this package."
          testid="package-history"
          detailed
        />
        {report.total > report.history.length
          ? (
            <p>
              <a href={`/dashboard/audit?package=${encodeURIComponent(report.name)}`}>
                All {report.total} rows in the audit log
              </a>
            </p>
          )
          : null}
      </Card>
    </Layout>
  );
}
