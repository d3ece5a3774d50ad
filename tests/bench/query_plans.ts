/**
 * The SQLite query plan of every audit query the reports, the audit API and
 * the scanner run: each query is captured while the real report functions
 * run against a migrated store, then `EXPLAIN QUERY PLAN` tells which index
 * (if any) it uses. Used to decide which audit indexes earn their insert
 * cost (docs/performance.md, "Audit indexes").
 *
 *   deno run -A tests/bench/query_plans.ts
 *
 * @module
 */
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { activityReport } from "../../src/reports/activity.ts";
import { agentsReport } from "../../src/reports/agents.ts";
import { auditPage } from "../../src/reports/audit_log.ts";
import { dataAvailability } from "../../src/reports/data_availability.ts";
import { legalReport } from "../../src/reports/legal.ts";
import type { ReportParams } from "../../src/reports/params.ts";
import { securityReport } from "../../src/reports/security.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import type { AuditFilter } from "../../src/store/types.ts";

const captured = new Map<string, { sql: string; params: SQLInputValue[]; callers: Set<string> }>();
let caller = "";
const prepare = DatabaseSync.prototype.prepare;
DatabaseSync.prototype.prepare = function (this: DatabaseSync, sql: string): StatementSync {
  const statement = prepare.call(this, sql);
  if (!/^\s*SELECT/i.test(sql) || !/audit_log/.test(sql)) return statement;
  const record = (params: SQLInputValue[]) => {
    const key = sql.replace(/\s+/g, " ").trim();
    const entry = captured.get(key) ?? { sql, params, callers: new Set<string>() };
    entry.callers.add(caller);
    captured.set(key, entry);
  };
  const all = statement.all.bind(statement);
  const get = statement.get.bind(statement);
  statement.all = ((...params: SQLInputValue[]) => (record(params), all(...params))) as typeof all;
  statement.get = ((...params: SQLInputValue[]) => (record(params), get(...params))) as typeof get;
  return statement;
};

const dir = await Deno.makeTempDir({ prefix: "policyd-query-plans-" });
const path = join(dir, "audit.db");
const store = openSqliteStore(path);
const now = new Date("2026-11-23T12:00:00Z");
const params: ReportParams = { days: 30, project: null, limit: 20, now };
const inProject: ReportParams = { ...params, project: "shop" };
const run = async (name: string, fn: () => Promise<unknown>) => {
  caller = name;
  await fn();
};
try {
  for (const [suffix, p] of [["", params], [" (project)", inProject]] as const) {
    await run(`legal${suffix}`, () => legalReport(store.audit, p));
    await run(`security${suffix}`, () => securityReport(store.audit, p, null));
    await run(`agents${suffix}`, () => agentsReport(store.audit, p));
    await run(`activity${suffix}`, () => activityReport(store.audit, p));
    await run(`data availability${suffix}`, () => dataAvailability(store.audit, p));
  }
  const auditQueries: Array<[string, Record<string, unknown>]> = [
    ["GET /audit", { limit: 50 }],
    ["GET /audit?days", { limit: 50, days: 7 }],
    ["GET /audit?project", { limit: 50, project: "shop" }],
    ["GET /audit?package", { limit: 50, package: "requests" }],
    ["GET /audit?verdict", { limit: 50, verdict: "DENIED" }],
    ["GET /audit?category", { limit: 50, category: "DENIAL_CVE" }],
    ["GET /audit?agent_model", { limit: 50, agent_model: "claude" }],
    ["GET /audit?source", { limit: 50, source: "hook" }],
  ];
  for (const [name, query] of auditQueries) {
    // deno-lint-ignore no-explicit-any
    await run(name, () => auditPage(store.audit, query as any, now));
  }
  await run("package page", () => store.audit.list({ package: "requests" }, 50));
  await run("package page", () => store.audit.group({ package: "requests" }, []));
  await run("scanner lastAlert", () => store.audit.lastAlert("requests"));
  const pending: AuditFilter = {
    since: "2026-10-24T12:00:00.000Z",
    verdicts: ["ALLOWED", "DENIED", "PROVISIONALLY_ALLOWED"],
  };
  await run(
    "approvals pending",
    () => store.audit.group(pending, ["package", "verdict", "source"]),
  );
  await store.close();

  const db = new DatabaseSync(path, { readOnly: true });
  const used = new Map<string, Set<string>>();
  for (const { sql, params: bound, callers } of captured.values()) {
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...bound) as Array<
      { detail: string }
    >;
    const details = plan.map((row) => row.detail).filter((d) => /audit_log/.test(d));
    for (const detail of details) {
      const index = detail.match(/INDEX (\w+)/)?.[1] ?? "(full scan)";
      const set = used.get(index) ?? new Set<string>();
      for (const c of callers) set.add(c);
      used.set(index, set);
    }
    console.log(`${[...callers].join(", ")}:\n  ${details.join("\n  ")}`);
  }
  const indexes = db.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_log' AND sql IS NOT NULL",
  ).all() as Array<{ name: string }>;
  db.close();
  console.log("\nindex use:");
  for (const { name } of indexes) {
    console.log(`  ${name.padEnd(28)} ${[...(used.get(name) ?? [])].join(", ") || "UNUSED"}`);
  }
  console.log(`  ${"(full scan)".padEnd(28)} ${[...(used.get("(full scan)") ?? [])].join(", ")}`);
} finally {
  await Deno.remove(dir, { recursive: true });
}
