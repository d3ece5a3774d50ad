import { deepStrictEqual, equal } from "node:assert/strict";
import { openSqliteStore } from "../store/sqlite.ts";
import { auditRow } from "../../tests/helpers/audit_rows.ts";
import { agentTrends } from "./agent_trends.ts";

const NOW = new Date("2026-11-21T12:00:00.000Z");

Deno.test("agentTrends() gives each agent model a daily series and weekly denial rates", async () => {
  const stamps = [
    "2026-11-08T10:00:00.000Z",
    "2026-11-20T10:00:00.000Z",
    "2026-11-20T11:00:00.000Z",
    "2026-11-21T09:00:00.000Z",
    "2026-11-21T10:00:00.000Z",
  ];
  let at = 0;
  const store = openSqliteStore(":memory:", { now: () => new Date(stamps[at++]) });
  try {
    await store.audit.insert(auditRow({ agent_model: "claude-code", verdict: "ALLOWED" }));
    await store.audit.insert(auditRow({ agent_model: "claude-code", verdict: "DENIED" }));
    await store.audit.insert(auditRow({ agent_model: "claude-code", verdict: "ALLOWED" }));
    await store.audit.insert(auditRow({ agent_model: null, verdict: "DENIED" }));
    await store.audit.insert(auditRow({ agent_model: "cursor", verdict: "CVE_ALERT" }));
    const trends = await agentTrends(store.audit, { days: 14, project: null, limit: 5, now: NOW });
    deepStrictEqual(trends.map((t) => [t.agent_model, t.evaluations, t.denials]), [
      ["claude-code", 3, 1],
      [null, 1, 1],
    ]);
    const claude = trends[0];
    equal(claude.days.length, 14);
    deepStrictEqual(claude.days.at(-2)?.verdicts, {
      ALLOWED: 1,
      DENIED: 1,
      PROVISIONALLY_ALLOWED: 0,
    });
    deepStrictEqual(
      claude.weekly_denial_rate.map((w) => [w.from, w.rate, w.evaluations]),
      [["2026-11-08", 0, 1], ["2026-11-15", 0.5, 2]],
    );
  } finally {
    await store.close();
  }
});
