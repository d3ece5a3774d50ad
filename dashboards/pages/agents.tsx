/**
 * `/dashboard/agents`: evaluations per coding assistant (agent model and
 * version); calls without agent headers share the `(unknown agent)` row.
 *
 * @module
 */
import type { AgentRow } from "../../src/reports/agents.ts";
import type { ReportQuery } from "../../src/reports/params.ts";
import { Card, Empty, PageHeader, ReportFilters, Stats, TableWrap } from "../components.tsx";
import { type Chrome, Layout } from "../layout.tsx";

/** View model of the agents page. */
export interface AgentsView {
  chrome: Chrome;
  query: ReportQuery;
  report: { agents: AgentRow[] };
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
        header are grouped as “(unknown agent)”.
      </PageHeader>
      <ReportFilters action="/dashboard/agents" query={query} apiPath="/api/v1/reports/agents" />
      <Stats
        items={[
          { label: "Evaluations", value: total, testid: "total-evaluations" },
          { label: "Denials", value: denials, testid: "total-denials" },
          { label: "Agents", value: report.agents.length },
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
                      <td>{a.agent_model}</td>
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
    </Layout>
  );
}
