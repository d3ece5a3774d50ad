/**
 * The agents report: evaluations per (agent_model, agent_version); rows
 * without an agent model share one `(unknown agent)` bucket (SPEC §15.19).
 * Every row breaks its evaluations down by call source, and `people` sums
 * the bucket's calls from `check`, `audit` and `precommit`: people at a
 * terminal or in CI, not agents (issue #29).
 *
 * @module
 */
import type { AuditReader } from "../store/types.ts";
import { emptyVerdicts, EVALUATION_VERDICTS, windowFilter } from "./params.ts";
import type { ReportParams, VerdictCounts } from "./params.ts";
import { topBy } from "./top.ts";

/** Name of the bucket of rows without agent headers. */
export const UNKNOWN_AGENT = "(unknown agent)";

/** Call sources of people at a terminal or in CI (the client's `check`, `audit`, git hook). */
export const PEOPLE_SOURCES = ["check", "audit", "precommit"] as const;

/** One agent row. */
export interface AgentRow {
  agent_model: string;
  agent_version: string | null;
  evaluations: number;
  verdicts: VerdictCounts;
  denials: number;
  /** Evaluations per call source (`check`, `hook`, `precommit`, `audit`, `api`, `mcp`, …). */
  sources: Record<string, number>;
}

/** The people within the `(unknown agent)` bucket: calls without agent headers from people. */
export interface PeopleSummary {
  evaluations: number;
  denials: number;
  /** Evaluations per people source. */
  sources: Record<string, number>;
}

/** Builds the agents report. */
export async function agentsReport(
  audit: AuditReader,
  params: ReportParams,
): Promise<{ agents: AgentRow[]; people: PeopleSummary }> {
  const groups = await audit.group(
    { ...windowFilter(params), verdicts: [...EVALUATION_VERDICTS] },
    ["agent_model", "agent_version", "source", "verdict"],
  );
  const rows = new Map<string, AgentRow>();
  const people: PeopleSummary = { evaluations: 0, denials: 0, sources: {} };
  for (const g of groups) {
    const model = g.keys.agent_model ?? null;
    const agent_model = model ?? UNKNOWN_AGENT;
    const agent_version = model === null ? null : g.keys.agent_version ?? null;
    const source = g.keys.source ?? "unknown";
    const key = JSON.stringify([agent_model, agent_version]);
    const row = rows.get(key) ?? {
      agent_model,
      agent_version,
      evaluations: 0,
      verdicts: emptyVerdicts(),
      denials: 0,
      sources: {},
    };
    row.evaluations += g.count;
    row.verdicts[g.keys.verdict as keyof VerdictCounts] += g.count;
    row.denials = row.verdicts.DENIED;
    row.sources[source] = (row.sources[source] ?? 0) + g.count;
    rows.set(key, row);
    if (model === null && (PEOPLE_SOURCES as readonly string[]).includes(source)) {
      people.evaluations += g.count;
      if (g.keys.verdict === "DENIED") people.denials += g.count;
      people.sources[source] = (people.sources[source] ?? 0) + g.count;
    }
  }
  const agents = topBy(rows.values(), params.limit, (a) => a.evaluations, (a) => a.agent_model);
  return { agents, people };
}
