/**
 * The agents report: evaluations per (agent_model, agent_version); rows
 * without an agent model share one `(unknown agent)` bucket (SPEC §15.19).
 *
 * @module
 */
import type { AuditReader } from "../store/types.ts";
import {
  emptyVerdicts,
  EVALUATION_VERDICTS,
  type ReportParams,
  type VerdictCounts,
  windowFilter,
} from "./params.ts";

/** Name of the bucket of rows without agent headers. */
export const UNKNOWN_AGENT = "(unknown agent)";

/** One agent row. */
export interface AgentRow {
  agent_model: string;
  agent_version: string | null;
  evaluations: number;
  verdicts: VerdictCounts;
  denials: number;
}

/** Builds the agents report. */
export async function agentsReport(
  audit: AuditReader,
  params: ReportParams,
): Promise<{ agents: AgentRow[] }> {
  const groups = await audit.group(
    { ...windowFilter(params), verdicts: [...EVALUATION_VERDICTS] },
    ["agent_model", "agent_version", "verdict"],
  );
  const rows = new Map<string, AgentRow>();
  for (const g of groups) {
    const model = g.keys.agent_model ?? null;
    const agent_model = model ?? UNKNOWN_AGENT;
    const agent_version = model === null ? null : g.keys.agent_version ?? null;
    const key = JSON.stringify([agent_model, agent_version]);
    const row = rows.get(key) ??
      { agent_model, agent_version, evaluations: 0, verdicts: emptyVerdicts(), denials: 0 };
    row.evaluations += g.count;
    row.verdicts[g.keys.verdict as keyof VerdictCounts] += g.count;
    row.denials = row.verdicts.DENIED;
    rows.set(key, row);
  }
  const agents = [...rows.values()]
    .sort((a, b) => b.evaluations - a.evaluations || a.agent_model.localeCompare(b.agent_model))
    .slice(0, params.limit);
  return { agents };
}
