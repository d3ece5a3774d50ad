/**
 * Reports at scale: each report (legal, security, agents; default window of
 * 30 days, all projects) over an audit log of 1,000,000 rows, timed next to
 * a full scan of the same table in the same run: the first (cold) run of
 * each report, which materialises the rollup buckets it reads, apart from
 * the median of the warm runs after it, and the same report reading the
 * audit log alone (no rollups: what it cost before them). The rows span one year
 * (a year's retention), with realistic shares of verdicts, categories,
 * licenses, projects and agents. The database is built once per run in a
 * temporary directory.
 *
 *   deno run -A tests/bench/reports.ts [--rows N] [--runs N]
 *   env: BENCH_REPORT_ROWS (1000000), BENCH_REPORT_RUNS (5),
 *        BENCH_REPORT_DB=FILE (keep the generated database there and reuse it next time),
 *        BENCH_REPORT_POSTGRES=postgres://…/DB (run on that PostgreSQL database instead; the
 *        rows are loaded unless it already holds exactly that many)
 *
 * @module
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { agentsReport } from "../../src/reports/agents.ts";
import { legalReport } from "../../src/reports/legal.ts";
import { securityReport } from "../../src/reports/security.ts";
import type { ReportParams } from "../../src/reports/params.ts";
import { openPostgresStore } from "../../src/store/postgres.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { postgresGroup } from "../../src/store/postgres_group.ts";
import { sqliteGroup } from "../../src/store/sqlite_group.ts";
import type { AuditReader, NewAuditRow, Store } from "../../src/store/types.ts";
import { auditRow } from "../helpers/audit_rows.ts";

function option(flag: string, env: string, fallback: number): number {
  const i = Deno.args.indexOf(flag);
  return Number((i >= 0 ? Deno.args[i + 1] : Deno.env.get(env)) ?? fallback);
}

const ROWS = option("--rows", "BENCH_REPORT_ROWS", 1_000_000);
const RUNS = option("--runs", "BENCH_REPORT_RUNS", 5);
const END = Date.parse("2026-11-23T12:00:00Z");
const SPAN_MS = 365 * 86_400_000;

/** The i-th synthetic row: deterministic, spread evenly over the year before END. */
function syntheticRow(i: number): NewAuditRow {
  const pick = <T>(items: readonly T[], salt: number) => items[(i * 7919 + salt) % items.length];
  const roll = (i * 2654435761) % 100;
  const verdict = roll < 80 ? "ALLOWED" : roll < 92 ? "PROVISIONALLY_ALLOWED" : "DENIED";
  const category = verdict !== "DENIED"
    ? null
    : pick(["DENIAL_CVE", "DENIAL_CVE", "DENIAL_LICENSE", "DENIAL_BANNED"] as const, 3);
  const cves = category === "DENIAL_CVE" ? [`CVE-2024-${1000 + (i % 50)}`] : [];
  return auditRow({
    package: `package-${i % 2000}`,
    version: `1.${i % 20}.0`,
    license: verdict === "ALLOWED"
      ? null
      : pick(["MIT", "Apache-2.0", "GPL-3.0-only", "UNKNOWN"], 5),
    verdict,
    project: `project-${i % 40}`,
    requester: `user-${i % 100}`,
    agent_model: pick(["claude-sonnet", "gpt-5", "gemini-2.5", null], 11),
    agent_version: pick(["1", "2", null], 13),
    source: pick(["hook", "check", "precommit", "api", "mcp"], 17),
    denial_category: category,
    cve_ids: cves,
    max_cvss: cves.length ? 5 + (i % 50) / 10 : null,
    registry_status: null,
    registry_version: "bench",
    reason: `synthetic row ${i}`,
  });
}

/** The first (cold) run's time and the median of RUNS warm runs after it. */
async function coldAndWarm(fn: () => unknown): Promise<{ cold: number; warm: number }> {
  let started = performance.now();
  await fn();
  const cold = performance.now() - started;
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { cold, warm: times[Math.floor(times.length / 2)] };
}

/** The store under test, with what the benchmark needs beside the audit interface. */
interface BenchStore {
  store: Store;
  /** Whether the audit log already holds the rows (a kept database). */
  loaded: boolean;
  /** The full scan the reports are compared with. */
  fullScan(): Promise<unknown>;
  /** Deletes every stored rollup, so the next report run is cold. */
  dropRollups(): Promise<void>;
  /** The audit log read without rollups (every group() from the audit log), as before them. */
  raw: AuditReader;
  dispose(): Promise<void>;
}

const FULL_SCAN =
  "SELECT COUNT(*) AS n, SUM(LENGTH(reason)) AS bytes FROM audit_log WHERE reason NOT LIKE '%no such text%'";
const DROP_ROLLUPS = ["DELETE FROM audit_rollup", "DELETE FROM audit_rollup_buckets"];

async function sqliteBench(now: () => Date): Promise<BenchStore> {
  const kept = Deno.env.get("BENCH_REPORT_DB");
  const dir = await Deno.makeTempDir({ prefix: "policyd-bench-reports-" });
  const path = kept ?? join(dir, "audit.db");
  const loaded = kept !== undefined && (await Deno.stat(kept).catch(() => null)) !== null;
  const store = openSqliteStore(path, { now });
  const db = new DatabaseSync(path);
  return {
    store,
    loaded,
    fullScan: () => Promise.resolve(db.prepare(FULL_SCAN).get()),
    raw: {
      list: store.audit.list,
      group: (filter, by) => Promise.resolve(sqliteGroup(db, filter, by)),
    },
    dropRollups: () => Promise.resolve(DROP_ROLLUPS.forEach((sql) => db.exec(sql))),
    dispose: async () => {
      db.close();
      await store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function postgresBench(url: string, now: () => Date): Promise<BenchStore> {
  const store = await openPostgresStore(url, { now });
  const [{ n }] = await store.sql.unsafe("SELECT COUNT(*) AS n FROM audit_log");
  if (Number(n) !== ROWS) await store.sql.unsafe("TRUNCATE audit_log");
  return {
    store,
    loaded: Number(n) === ROWS,
    fullScan: () => store.sql.unsafe(FULL_SCAN),
    raw: { list: store.audit.list, group: (filter, by) => postgresGroup(store.sql, filter, by) },
    dropRollups: async () => {
      for (const sql of DROP_ROLLUPS) await store.sql.unsafe(sql);
    },
    dispose: () => store.close(),
  };
}

let i = 0;
const now = () => new Date(END - SPAN_MS + (i++ * SPAN_MS) / ROWS);
const postgresUrl = Deno.env.get("BENCH_REPORT_POSTGRES");
const bench = postgresUrl ? await postgresBench(postgresUrl, now) : await sqliteBench(now);
try {
  const { store } = bench;
  const started = performance.now();
  const CHUNK = 20_000;
  for (let from = 0; !bench.loaded && from < ROWS; from += CHUNK) {
    const count = Math.min(CHUNK, ROWS - from);
    await store.audit.insertMany(Array.from({ length: count }, (_, k) => syntheticRow(from + k)));
  }
  const loadMs = performance.now() - started;

  // Start from no rollups, also on a kept database, so that the first run is really cold.
  await bench.dropRollups();
  const fullScan = (await coldAndWarm(bench.fullScan)).warm;

  const params: ReportParams = { days: 30, project: null, limit: 20, now: new Date(END) };
  const reports: Array<[string, (audit: AuditReader) => Promise<unknown>]> = [
    ["legal", (audit) => legalReport(audit, params)],
    ["security", (audit) => securityReport(audit, params, null)],
    ["agents", (audit) => agentsReport(audit, params)],
  ];
  const results: Array<[string, { cold: number; warm: number }, number]> = [];
  for (const [name, report] of reports) {
    const { cold, warm } = await coldAndWarm(() => report(store.audit));
    results.push([name, { cold, warm }, (await coldAndWarm(() => report(bench.raw))).warm]);
  }

  console.log(
    `reports benchmark (${postgresUrl ? "PostgreSQL" : "SQLite"}): ${
      ROWS.toLocaleString("en")
    } audit rows over 365 days (${
      bench.loaded ? "kept" : `loaded in ${(loadMs / 1000).toFixed(1)} s`
    }), window 30 days, median of ${RUNS} warm runs`,
  );
  console.log(`full table scan ${fullScan.toFixed(1).padStart(9)} ms`);
  const cell = (ms: number) =>
    `${ms.toFixed(1).padStart(9)} ms ${(ms / fullScan).toFixed(3).padStart(6)} ×`;
  console.log(
    `${"report".padEnd(15)} ${"warm (median)".padStart(20)} ${"cold (first run)".padStart(20)} ${
      "audit log alone".padStart(20)
    }`,
  );
  for (const [name, { cold, warm }, raw] of results) {
    console.log(`${name.padEnd(15)} ${cell(warm)} ${cell(cold)} ${cell(raw)}`);
  }
  console.log(
    "goal: each report ≤ 0.100 × full scan in steady state (warm: the rollup buckets of the window\n" +
      "are stored). The cold run materialises them (each report its own cubes; cubes shared with a\n" +
      "report run before it are already there); 'audit log alone' reads no rollups, as before them.",
  );
} finally {
  await bench.dispose();
}
