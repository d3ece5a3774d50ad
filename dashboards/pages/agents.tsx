/**
 * `/dashboard/agents`: evaluations per coding assistant (agent model and
 * version) with a drill-down into the audit log and the agent's approval
 * requests, a trend and weekly denial rate per agent model, and the calls
 * without agent headers (people, scripts) shown apart (issue #31).
 *
 * @module
 */
import type { AgentTrend } from "../../src/reports/agent_trends.ts";
import { type AgentRow, type PeopleSummary, UNKNOWN_AGENT } from "../../src/reports/agents.ts";
import type { ReportQuery } from "../../src/reports/params.ts";
import { StackedDays } from "../charts.tsx";
import { Card, Empty, PageHeader, ReportFilters, Stats } from "../components.tsx";
import { type Chrome, Layout } from "../layout.tsx";
import { AgentsTable, percent } from "./agents_table.tsx";

/** View model of the agents page. */
export interface AgentsView {
  chrome: Chrome;
  query: ReportQuery;
  report: { agents: AgentRow[]; people?: PeopleSummary };
  /** Per agent model, busiest first (null: calls without agent headers). */
  trends: AgentTrend[];
  /** Approval requests per agent model: total and pending. */
  requests: Record<string, { total: number; pending: number }>;
}

/** How the people's call sources read on the page. */
const PEOPLE_LABELS: Record<string, string> = {
  check: "policy check",
  audit: "policy audit (terminal or CI)",
  precommit: "git commits (pre-commit hook)",
};

/** The people (check, audit, pre-commit calls) among the calls without agent headers. */
function PeopleSources(props: { people: PeopleSummary }) {
  const sources = Object.entries(props.people.sources).sort((a, b) => b[1] - a[1]);
  if (!props.people.evaluations) return null;
  return (
    <table data-testid="people-sources">
      <thead>
        <tr>
          <th scope="col">People, by how they asked</th>
          <th scope="col" class="num">Evaluations</th>
        </tr>
      </thead>
      <tbody>
        {sources.map(([source, count]) => (
          <tr>
            <td>{PEOPLE_LABELS[source] ?? source}</td>
            <td class="num">{count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Agent models that get a trend chart. */
const TRENDS_SHOWN = 4;

function WeeklyRates(props: { trend: AgentTrend }) {
  const spans = props.trend.weekly_denial_rate.filter((w) => w.evaluations > 0);
  if (!spans.length) return null;
  return (
    <p class="hint" data-testid={`weekly-rate-${props.trend.agent_model ?? "none"}`}>
      Denial rate per week:{" "}
      {spans.map((w) => `${percent(w.rate ?? 0, 1)} from ${w.from}`).join(" · ")}
    </p>
  );
}

function Trend(props: { trend: AgentTrend; index: number; wide?: boolean }) {
  const t = props.trend;
  return (
    <section aria-labelledby={`trend-${props.index}`}>
      <h3 id={`trend-${props.index}`}>
        {t.agent_model ?? "Without agent headers"}{" "}
        <span class="muted">({t.evaluations}, {percent(t.denials, t.evaluations)} denied)</span>
      </h3>
      <StackedDays
        id={`agent-trend-${props.index}`}
        title={`${t.agent_model ?? "Calls without agent headers"}: evaluations per day`}
        unit="evaluations"
        wide={props.wide}
        series={[
          { key: "ALLOWED", label: "Allowed", kind: "ALLOWED" },
          { key: "PROVISIONALLY_ALLOWED", label: "Provisional", kind: "PROVISIONALLY_ALLOWED" },
          { key: "DENIED", label: "Denied", kind: "DENIED" },
        ]}
        days={t.days.map((d) => ({
          day: d.day,
          values: d.verdicts as unknown as Record<string, number>,
        }))}
      />
      <WeeklyRates trend={t} />
    </section>
  );
}

/** The agents report page. */
export function AgentsPage(props: { view: AgentsView }) {
  const { chrome, query, report, trends, requests } = props.view;
  const scope = query.project ? `project ${query.project}` : "all projects";
  const agents = report.agents.filter((a) => a.agent_model !== UNKNOWN_AGENT);
  const people = report.agents.find((a) => a.agent_model === UNKNOWN_AGENT);
  const total = agents.reduce((n, a) => n + a.evaluations, 0);
  const denials = agents.reduce((n, a) => n + a.denials, 0);
  const models = new Set(agents.map((a) => a.agent_model)).size;
  const shown = trends.filter((t) => t.agent_model !== null).slice(0, TRENDS_SHOWN);
  const peopleTrend = trends.find((t) => t.agent_model === null);
  return (
    <Layout title="Agents" active="/dashboard/agents" chrome={chrome}>
      <PageHeader title="Agents report">
        Evaluations per agent model and version over the last {query.days} days,{" "}
        {scope}, with each model's trend and approval requests. Calls without the{" "}
        <code>X-Policy-Agent-Model</code> header (people, scripts) are counted apart.
      </PageHeader>
      <ReportFilters action="/dashboard/agents" query={query} apiPath="/api/v1/reports/agents" />
      <Stats
        items={[
          { label: "Evaluations by agents", value: total, testid: "total-evaluations" },
          { label: "Denials of agents", value: denials, testid: "total-denials" },
          { label: "Agent models", value: models },
          { label: "Agents' denial rate", value: percent(denials, total) },
          {
            label: "Evaluations without agent headers",
            value: people?.evaluations ?? 0,
            testid: "people-evaluations",
          },
        ]}
      />
      <Card title="Agents" hint="Open an agent's decisions in the audit log or its requests.">
        {agents.length
          ? <AgentsTable agents={agents} requests={requests} days={query.days} />
          : <Empty>No agent evaluated a package in this window.</Empty>}
      </Card>
      <Card
        title="Trend per agent model"
        id="agent-trends"
        hint={`The ${TRENDS_SHOWN} busiest agent models, evaluations per day by verdict.`}
      >
        {shown.length
          ? (
            <div class="grid compact">
              {shown.map((t, i) => <Trend key={t.agent_model} trend={t} index={i} />)}
            </div>
          )
          : <Empty>No agent evaluated a package in this window.</Empty>}
      </Card>
      <Card title="Without agent headers" id="people">
        {people && peopleTrend
          ? (
            <div data-testid="people">
              <p>
                {people.evaluations}{" "}
                evaluations without an agent model (people at a terminal, scripts, CI without the
                header): {people.verdicts.ALLOWED} allowed, {people.verdicts.PROVISIONALLY_ALLOWED}
                {" "}
                provisional, {people.denials} denied (
                {percent(people.denials, people.evaluations)}).
              </p>
              {report.people ? <PeopleSources people={report.people} /> : null}
              <Trend trend={peopleTrend} index={TRENDS_SHOWN} wide />
            </div>
          )
          : <Empty>Every evaluation in this window came from an agent.</Empty>}
      </Card>
    </Layout>
  );
}
