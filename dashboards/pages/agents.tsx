/**
 * `/dashboard/agents`: evaluations per coding assistant (agent model and
 * version); calls without agent headers share the `(unknown agent)` row,
 * within which the people (`policy check`, `policy audit`, the git hook) are
 * shown apart.
 *
 * @module
 */
import type { AgentRow, PeopleSummary } from "../../src/reports/agents.ts";
import { UNKNOWN_AGENT } from "../../src/reports/agents.ts";
import type { ReportQuery } from "../../src/reports/params.ts";
import { Card, Empty, PageHeader, ReportFilters, Stats, TableWrap } from "../components.tsx";
import { type Chrome, Layout } from "../layout.tsx";

/** View model of the agents page. */
export interface AgentsView {
  chrome: Chrome;
  query: ReportQuery;
  report: { agents: AgentRow[]; people: PeopleSummary };
}

/** How the people's call sources read on the page. */
const PEOPLE_LABELS: Record<string, string> = {
  check: "policy check",
  audit: "policy audit (terminal or CI)",
  precommit: "git commits (pre-commit hook)",
};

/** The people within the unknown bucket, per source. */
function PeopleCard(props: { people: PeopleSummary }) {
  const { people } = props;
  const sources = Object.entries(people.sources).sort((a, b) => b[1] - a[1]);
  return (
    <Card title="People">
      {people.evaluations
        ? (
          <TableWrap label="People">
            <table data-testid="people">
              <thead>
                <tr>
                  <th scope="col">How they asked</th>
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
          </TableWrap>
        )
        : <Empty>No evaluations from people in this window.</Empty>}
    </Card>
  );
}

function percent(part: number, whole: number): string {
  return whole ? `${Math.round((part / whole) * 100)}%` : "—";
}

/** The agents report page. */
export function AgentsPage(props: { view: AgentsView }) {
  const { chrome, query, report } = props.view;
  const scope = query.project ? `project ${query.project}` : "all projects";
  const total = report.agents.reduce((n, a) => n + a.evaluations, 0);
  const denials = report.agents.reduce((n, a) => n + a.denials, 0);
  return (
    <Layout title="Agents" active="/dashboard/agents" chrome={chrome}>
      <PageHeader title="Agents report">
        Evaluations per agent model and version over the last {query.days} days,{" "}
        {scope}. Calls without the <code>X-Policy-Agent-Model</code>{" "}
        header are grouped as “(unknown agent)”; the people among them (<code>policy check</code>,
        {" "}
        <code>policy audit</code>, git commits) are counted apart below.
      </PageHeader>
      <ReportFilters action="/dashboard/agents" query={query} apiPath="/api/v1/reports/agents" />
      <Stats
        items={[
          { label: "Evaluations", value: total, testid: "total-evaluations" },
          { label: "Denials", value: denials, testid: "total-denials" },
          { label: "Agents", value: report.agents.length },
          { label: "From people", value: report.people.evaluations, testid: "people-evaluations" },
          { label: "Denial rate", value: percent(denials, total) },
        ]}
      />
      <Card title="Agents">
        {report.agents.length
          ? (
            <TableWrap label="Agents">
              <table data-testid="agents" class="sortable">
                <thead>
                  <tr>
                    <th scope="col">Agent model</th>
                    <th scope="col">Version</th>
                    <th scope="col" class="num">Evaluations</th>
                    <th scope="col" class="num">Allowed</th>
                    <th scope="col" class="num">Provisional</th>
                    <th scope="col" class="num">Denied</th>
                    <th scope="col">Denial rate</th>
                  </tr>
                </thead>
                <tbody>
                  {report.agents.map((a) => (
                    <tr>
                      <td>
                        {a.agent_model}
                        {a.agent_model === UNKNOWN_AGENT && report.people.evaluations
                          ? (
                            <span class="muted" data-testid="unknown-people">
                              &nbsp;({report.people.evaluations} from people)
                            </span>
                          )
                          : null}
                      </td>
                      <td>{a.agent_version ?? "—"}</td>
                      <td class="num">{a.evaluations}</td>
                      <td class="num">{a.verdicts.ALLOWED}</td>
                      <td class="num">{a.verdicts.PROVISIONALLY_ALLOWED}</td>
                      <td class="num">{a.denials}</td>
                      <td data-sort={a.evaluations ? a.denials / a.evaluations : 0}>
                        <span class="bar rate" aria-hidden="true">
                          <span
                            style={`width:${
                              a.evaluations ? Math.round((a.denials / a.evaluations) * 100) : 0
                            }%`}
                          >
                          </span>
                        </span>
                        <span class="muted">{percent(a.denials, a.evaluations)}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )
          : <Empty>No evaluations in this window.</Empty>}
      </Card>
      <PeopleCard people={report.people} />
    </Layout>
  );
}
