/**
 * Per-agent trends for the agents page (issue #31): evaluations per UTC day
 * and verdict for each agent model, and the denial rate per week, so a
 * reader sees whether an agent's decisions get better or worse. Calls
 * without an agent model (people, scripts) form their own series.
 *
 * @module
 */
import type { AuditReader } from "../store/types.ts";
import { dayRange } from "./activity.ts";
import { emptyVerdicts, EVALUATION_VERDICTS, windowFilter } from "./params.ts";
import type { ReportParams, VerdictCounts } from "./params.ts";

/** The trend of one agent model (null: calls without agent headers). */
export interface AgentTrend {
  agent_model: string | null;
  evaluations: number;
  denials: number;
  /** One entry per day of the window, oldest first. */
  days: Array<{ day: string; verdicts: VerdictCounts }>;
  /** Denial rate per 7-day span, oldest first (null: no evaluation in the span). */
  weekly_denial_rate: Array<{ from: string; rate: number | null; evaluations: number }>;
}

/**
 * Builds the trends of every agent model of the window, busiest first.
 *
 * @example
 * ```ts
 * import { openSqliteStore } from "../store/sqlite.ts";
 * const store = openSqliteStore(":memory:");
 * await agentTrends(store.audit, { days: 14, project: null, limit: 5, now: new Date() });
 * await store.close();
 * ```
 */
export async function agentTrends(
  audit: AuditReader,
  params: ReportParams,
): Promise<AgentTrend[]> {
  const groups = await audit.group(
    { ...windowFilter(params), verdicts: [...EVALUATION_VERDICTS] },
    ["day", "agent_model", "verdict"],
  );
  const days = dayRange(params.now, Math.min(params.days, 3650));
  const byModel = new Map<string | null, AgentTrend>();
  const index = new Map(days.map((d, i) => [d, i]));
  for (const g of groups) {
    const model = g.keys.agent_model ?? null;
    let trend = byModel.get(model);
    if (!trend) {
      trend = {
        agent_model: model,
        evaluations: 0,
        denials: 0,
        days: days.map((day) => ({ day, verdicts: emptyVerdicts() })),
        weekly_denial_rate: [],
      };
      byModel.set(model, trend);
    }
    const i = index.get(g.keys.day ?? "");
    const verdict = g.keys.verdict as keyof VerdictCounts;
    trend.evaluations += g.count;
    if (verdict === "DENIED") trend.denials += g.count;
    if (i !== undefined) trend.days[i].verdicts[verdict] += g.count;
  }
  for (const trend of byModel.values()) {
    // Weeks counted back from the newest day, so the last span is always a whole week.
    const spans: AgentTrend["weekly_denial_rate"] = [];
    for (let end = trend.days.length; end > 0; end -= 7) {
      const span = trend.days.slice(Math.max(0, end - 7), end);
      const n = span.reduce((sum, d) =>
        sum + d.verdicts.ALLOWED + d.verdicts.DENIED +
        d.verdicts.PROVISIONALLY_ALLOWED, 0);
      const denied = span.reduce((sum, d) => sum + d.verdicts.DENIED, 0);
      spans.unshift({ from: span[0].day, rate: n ? denied / n : null, evaluations: n });
    }
    trend.weekly_denial_rate = spans;
  }
  return [...byModel.values()].sort((a, b) =>
    b.evaluations - a.evaluations || (a.agent_model ?? "").localeCompare(b.agent_model ?? "")
  );
}
