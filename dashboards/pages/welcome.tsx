/**
 * `/`: the overview. Activity first (evaluations per day by verdict, denials
 * per day by category, the most denied packages of every category, recent
 * decisions), then the state of the data and the registry, then how to
 * evaluate a package with curl and the `policy` client.
 *
 * @module
 */
import { proposerSentence } from "../review_labels.ts";
import type { ActivityReport } from "../../src/reports/activity.ts";
import { chartedDays, EVALUATION_DENIAL_CATEGORIES } from "../../src/reports/activity.ts";
import type { LegalReport } from "../../src/reports/legal.ts";
import type { ReportQuery } from "../../src/reports/params.ts";
import type { SecurityReport } from "../../src/reports/security.ts";
import { StackedDays } from "../charts.tsx";
import {
  Badge,
  Bars,
  Card,
  CATEGORY_LABELS,
  ENUM_LABELS,
  PageHeader,
  ReportFilters,
  Stats,
} from "../components.tsx";
import { AuditTable } from "../audit_table.tsx";
import { AvailabilityCard } from "../data_state.tsx";
import { DenialsPerDay, TopDenied } from "../denials.tsx";
import { type Chrome, Layout } from "../layout.tsx";

/** Rows of the overview's lists: the overview stays one screenful of summaries. */
const OVERVIEW_ROWS = 10;

/** View model of the overview. */
export interface WelcomeView {
  chrome: Chrome;
  /** Base URL of this server as the browser sees it, for the examples. */
  origin: string;
  query: ReportQuery;
  activity: ActivityReport;
  /** The reports whose data-availability fields the overview summarises. */
  availability: { security: SecurityReport; legal: LegalReport };
  proposer: string;
  compiledAt: string;
  /** Registry rules per status. */
  statusCounts: Array<{ status: string; count: number }>;
  cveThreshold: number;
  blockOnCve: boolean;
  unknownLicensePolicy: string;
}

/** The overview page. */
export function WelcomePage(props: { view: WelcomeView }) {
  const v = props.view;
  const a = v.activity;
  const overviewTop = {
    ...a,
    top_denied: a.top_denied.map((t) => ({
      ...t,
      packages: t.packages.slice(0, OVERVIEW_ROWS / 2),
    })),
  };
  const base = v.origin;
  const scope = v.query.project ? `project ${v.query.project}` : "all projects";
  const denied = a.totals.verdicts.DENIED;
  return (
    <Layout title="Overview" active="/" chrome={v.chrome}>
      <PageHeader title="Overview">
        Decisions of the last {v.query.days} days,{" "}
        {scope}. policyd answers whether a Python package may be used, records every decision in the
        audit log, and keeps a reviewed registry of package rules.
      </PageHeader>
      <ReportFilters action="/" query={v.query} apiPath="/api/v1/audit" />

      <Stats
        items={[
          { label: "Evaluations", value: a.totals.evaluations, testid: "total-evaluations" },
          { label: "Allowed", value: a.totals.verdicts.ALLOWED, testid: "total-allowed" },
          {
            label: "Provisional",
            value: a.totals.verdicts.PROVISIONALLY_ALLOWED,
            testid: "total-provisional",
          },
          { label: "Denied", value: denied, testid: "total-denied" },
          {
            label: "Registry version",
            value: v.chrome.registryVersion,
            small: true,
            testid: "registry-version",
          },
          {
            label: "Packages in the registry",
            value: v.chrome.packageCount,
            testid: "package-count",
          },
        ]}
      />

      <Card
        title="Evaluations per day"
        id="evaluations-per-day"
        hint={a.data_starts
          ? `Recorded data starts on ${a.data_starts}; the days before it are not drawn.`
          : undefined}
      >
        <StackedDays
          id="evaluations-chart"
          title="Evaluations per day by verdict"
          unit="evaluations"
          wide
          series={[
            { key: "ALLOWED", label: "Allowed", kind: "ALLOWED" },
            { key: "PROVISIONALLY_ALLOWED", label: "Provisional", kind: "PROVISIONALLY_ALLOWED" },
            { key: "DENIED", label: "Denied", kind: "DENIED" },
          ]}
          days={chartedDays(a.days, a.data_starts).map((d) => ({
            day: d.day,
            values: d.verdicts as unknown as Record<string, number>,
          }))}
        />
      </Card>

      <Card title="Denials per day" id="denials-per-day">
        <DenialsPerDay activity={a} wide />
      </Card>

      <Card
        title="Most denied packages"
        id="top-denied"
        hint={`Every denial category, registry rules first, up to ${
          OVERVIEW_ROWS / 2
        } packages each (the security and legal pages list more). A package links to its page.`}
      >
        <div class="grid compact">
          {EVALUATION_DENIAL_CATEGORIES.map((category) => (
            <section aria-labelledby={`top-${category}`}>
              <h3 id={`top-${category}`}>
                {CATEGORY_LABELS[category]}{" "}
                <span class="muted">({a.totals.denials_by_category[category]})</span>
              </h3>
              <TopDenied
                activity={overviewTop}
                category={category}
                availability={v.availability.security.data_availability}
              />
            </section>
          ))}
        </div>
      </Card>

      <Card title="Recent decisions" id="recent">
        <AuditTable
          rows={a.recent_decisions.slice(0, OVERVIEW_ROWS)}
          caption={`The ${OVERVIEW_ROWS} newest evaluations, every verdict.`}
          empty="No evaluation in this window."
          testid="recent-decisions"
        />
        <p>
          <a
            href={`/dashboard/audit${
              v.query.project ? `?project=${encodeURIComponent(v.query.project)}` : ""
            }`}
          >
            Browse the whole audit log
          </a>
        </p>
      </Card>

      <div class="grid">
        <AvailabilityCard
          data={v.availability.security.data_availability}
          compiledAt={v.compiledAt}
        />
        <Card
          title="Registry at a glance"
          hint={`Proposals: ${proposerSentence(v.proposer)}. CVE threshold ${
            v.blockOnCve ? v.cveThreshold.toFixed(1) : "off"
          }. Unknown licenses: ${v.unknownLicensePolicy}.`}
        >
          {v.statusCounts.length
            ? (
              <Bars
                label="Rules per status"
                items={v.statusCounts.map((s) => ({
                  label: ENUM_LABELS[s.status] ?? s.status,
                  count: s.count,
                  kind: s.status,
                }))}
              />
            )
            : <p class="empty">The registry has no package rules yet.</p>}
          <p data-testid="proposer" class="muted">{v.proposer}</p>
        </Card>
      </div>

      <Card title="Evaluate a package with curl">
        <pre><code>{`curl '${base}/api/v1/evaluate?package=requests'
curl '${base}/api/v1/evaluate?package=pyyaml&version=5.3' -H 'X-Policy-Project: my-app'
curl -X POST '${base}/api/v1/evaluate/batch' -H 'Content-Type: application/json' \\
  -d '{"packages":[{"package":"flask"},{"package":"pycrypto"}]}'`}</code></pre>
        <p class="hint">
          The verdict is <Badge kind="ALLOWED" />, <Badge kind="PROVISIONALLY_ALLOWED" /> or{" "}
          <Badge kind="DENIED" />; every evaluation writes one audit row that the reports read.
        </p>
      </Card>

      <Card title="Evaluate with the policy client">
        <pre><code>{`policy init --server-url ${base}   # config, pre-commit and assistant hooks
policy check requests                      # exit 0 allowed, 1 provisional, 2 denied
policy check pyyaml --version 5.3 --json
policy request-approval some-package --rationale "why we need it"   # filed for review only
policy approve some-package --reason "reviewed"   # an operator approves it
policy status`}</code></pre>
      </Card>
    </Layout>
  );
}
