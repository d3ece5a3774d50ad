/**
 * The agents table of `/dashboard/agents`: verdict counts, denial rate, a
 * drill-down into the audit log and the agent's approval requests.
 *
 * @module
 */
import type { AgentRow } from "../../src/reports/agents.ts";
import { TableWrap } from "../components.tsx";

/** `part` of `whole` as a whole percentage, "—" when `whole` is 0. */
export function percent(part: number, whole: number): string {
  return whole ? `${Math.round((part / whole) * 100)}%` : "—";
}

/** The table of agent rows. */
export function AgentsTable(
  props: {
    agents: AgentRow[];
    requests: Record<string, { total: number; pending: number }>;
    days: number;
  },
) {
  return (
    <TableWrap label="Agents">
      <table data-testid="agents" class="sortable cards">
        <thead>
          <tr>
            <th scope="col">Agent model</th>
            <th scope="col">Version</th>
            <th scope="col" class="num">Evaluations</th>
            <th scope="col" class="num">Allowed</th>
            <th scope="col" class="num">Provisional</th>
            <th scope="col" class="num">Denied</th>
            <th scope="col">Denial rate</th>
            <th scope="col">Requests</th>
          </tr>
        </thead>
        <tbody>
          {props.agents.map((a) => {
            const audit = new URLSearchParams({
              agent_model: a.agent_model,
              days: String(props.days),
            });
            const asked = props.requests[a.agent_model];
            return (
              <tr data-agent={a.agent_model}>
                <td data-label="Agent model">
                  <a href={`/dashboard/audit?${audit}`} title="Its decisions in the audit log">
                    {a.agent_model}
                  </a>
                </td>
                <td data-label="Version">{a.agent_version ?? "—"}</td>
                <td data-label="Evaluations" class="num">{a.evaluations}</td>
                <td data-label="Allowed" class="num">{a.verdicts.ALLOWED}</td>
                <td data-label="Provisional" class="num">{a.verdicts.PROVISIONALLY_ALLOWED}</td>
                <td data-label="Denied" class="num">{a.denials}</td>
                <td
                  data-label="Denial rate"
                  data-sort={a.evaluations ? a.denials / a.evaluations : 0}
                >
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
                <td data-label="Requests" data-sort={asked?.total ?? 0}>
                  {asked
                    ? (
                      <a
                        href={`/dashboard/requests?${new URLSearchParams({
                          agent_model: a.agent_model,
                        })}`}
                      >
                        {asked.total} ({asked.pending} pending)
                      </a>
                    )
                    : <span class="muted">none</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}
