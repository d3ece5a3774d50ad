/**
 * Throughput of `GET /api/v1/evaluate` measured with an external load
 * generator (`wrk`), in alternating rounds against two baselines in the
 * same run:
 *
 * - `bare`: a bare Hono route on `Deno.serve` answering `{"ok":true}`;
 * - `insert`: a bare Hono route that commits one SQLite row per request;
 * - `answer`: a bare Hono route answering a copy of one real `/evaluate`
 *   answer (about 1 KB): what the answer's size alone costs;
 * - `evaluate`: a real `policyd serve` process (registry hit, in-process
 *   cache warm, one audit row committed before every answer);
 * - `postgres`: the same `policyd serve` on the PostgreSQL store
 *   (`DATABASE_URL`, a scratch database on `POLICYD_TEST_POSTGRES` or
 *   127.0.0.1:5432), compared with `evaluate` in the same rounds (issue 34:
 *   goal ≥ 0.5 × SQLite per instance); `BENCH_POSTGRES=off` leaves it out.
 *
 * Every server runs in its own process; the fake upstream (OSV and PyPI
 * replaying the fixtures) lives in this one and only sees the warm-up.
 * Prints each round and the median ratios, then checks that every answered
 * evaluation has its audit row.
 *
 *   deno run -A tests/bench/evaluate.ts [--rounds N] [--seconds S]
 *   env: BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_CONNECTIONS (32),
 *        BENCH_THREADS (2), BENCH_LOG_LEVEL (policyd's LOG_LEVEL, default info),
 *        BENCH_CPU_PROF=DIR (write policyd's V8 CPU profile to DIR, `deno run --cpu-prof`),
 *        BENCH_ONLY=evaluate (measure only these targets, comma-separated, e.g. while
 *          profiling; `deno task bench:postgres` is BENCH_ONLY=evaluate,postgres),
 *        BENCH_COMPARE_REPO=DIR (also run `policyd serve` from the checkout DIR as
 *          target `compare`, in the same alternating rounds: an A/B of a change),
 *        BENCH_COMPARE_ENV="NAME=VALUE …" (settings of the `compare` target only; with
 *          BENCH_COMPARE_REPO=. an A/B of a setting, e.g. IDLE_TIMEOUT_MS=0)
 *
 * Next to requests per second it prints each server's CPU time per answered
 * request (user + system of the whole process, every thread, read from
 * `/proc/PID/stat` around each round; Linux only): throughput ratios swing
 * with whatever else runs on the machine, CPU per request much less.
 *
 * @module
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import postgres from "postgres";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import {
  compareEnv,
  median,
  processCpuSeconds,
  requireWrk,
  spawnServer,
  type Target,
  warm,
  wrk as runWrk,
  type WrkResult,
} from "./wrk.ts";

const REPO = new URL("../../", import.meta.url).pathname;

function option(flag: string, env: string, fallback: number): number {
  const i = Deno.args.indexOf(flag);
  const raw = i >= 0 ? Deno.args[i + 1] : Deno.env.get(env);
  const value = Number(raw ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag}/${env}: expected a number`);
  return value;
}

const ROUNDS = option("--rounds", "BENCH_ROUNDS", 3);
const SECONDS = option("--seconds", "BENCH_SECONDS", 5);
const CONNECTIONS = option("--connections", "BENCH_CONNECTIONS", 32);
const THREADS = option("--threads", "BENCH_THREADS", 2);
const LOG_LEVEL = Deno.env.get("BENCH_LOG_LEVEL") ?? "info";
const WRK = await requireWrk();
const CPU_PROF = Deno.env.get("BENCH_CPU_PROF");
const ONLY_LIST = Deno.env.get("BENCH_ONLY")?.split(",").map((s) => s.trim()).filter(Boolean);
const ONLY = ONLY_LIST?.length ? new Set(ONLY_LIST) : null;
const POSTGRES = Deno.env.get("BENCH_POSTGRES") !== "off";
const POSTGRES_SERVER = Deno.env.get("POLICYD_TEST_POSTGRES") ??
  "postgres://postgres@127.0.0.1:5432";
const COMPARE_REPO = Deno.env.get("BENCH_COMPARE_REPO");
const COMPARE_ENV = compareEnv();

/** Result of one wrk run. */
/**
 * CPU seconds so far of each PostgreSQL process working for `database`: its
 * backends and the server's own background processes (WAL writer,
 * checkpointer…), not the backends of other databases on the same server
 * (other work on the machine). Null off Linux.
 */
async function postgresCpuSeconds(database: string): Promise<Map<number, number> | null> {
  const rows = await pgAdmin((sql) =>
    sql`SELECT pid FROM pg_stat_activity
      WHERE datname = ${database} OR (datname IS NULL AND backend_type <> 'client backend')`
  );
  const seconds = new Map<number, number>();
  for (const { pid } of rows) {
    const cpu = processCpuSeconds(Number(pid));
    if (cpu === null) continue; // the process ended, or not Linux
    seconds.set(Number(pid), cpu);
  }
  return seconds.size ? seconds : null;
}

/** CPU seconds spent between two readings (a process that started in between counts from 0). */
function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
  return total;
}

/** One wrk run against `url` (see `wrk.ts`), with the CPU of `database`'s PostgreSQL processes. */
async function wrk(
  url: string,
  pid: number,
  database?: string,
): Promise<WrkResult & { dbCpuPerRequestUs: number | null }> {
  const dbBefore = database ? await postgresCpuSeconds(database) : null;
  const result = await runWrk(url, pid, {
    wrk: WRK,
    threads: THREADS,
    connections: CONNECTIONS,
    seconds: SECONDS,
  });
  const dbAfter = database ? await postgresCpuSeconds(database) : null;
  const dbCpuPerRequestUs = dbBefore === null || dbAfter === null || result.requests === 0
    ? null
    : cpuSpent(dbBefore, dbAfter) * 1e6 / result.requests;
  return { ...result, dbCpuPerRequestUs };
}

/** `policyd serve` from the checkout `repo`, auditing into `db`. */
function spawnPolicyd(
  name: string,
  repo: string,
  db: string,
  extraEnv: Record<string, string> = {},
): Promise<Target> {
  return spawnServer(
    name,
    [
      "run",
      "-A",
      ...(CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF}`] : []),
      "cli/policyd.ts",
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
    ],
    {
      POLICY_DB_PATH: db,
      REGISTRY_PATH: join(dir, "registry.yaml"),
      REGISTRY_RELOAD_INTERVAL: "0",
      CVE_SCAN_SCHEDULE: "off",
      OSV_API_URL: upstream.url,
      PYPI_URL: upstream.url,
      LOG_LEVEL,
      ...extraEnv,
    },
    "/api/v1/evaluate?package=requests&version=2.32.3",
    repo,
  );
}

/** Runs `work` on the PostgreSQL server's maintenance database. */
async function pgAdmin<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(`${POSTGRES_SERVER}/postgres`, { max: 1, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const dir = await Deno.makeTempDir({ prefix: "policyd-bench-" });
const upstream = await startFakeUpstream();
const targets: Target[] = [];
const pgDatabase = POSTGRES ? `policyd_bench_${crypto.randomUUID().slice(0, 8)}` : null;
try {
  await Deno.writeTextFile(join(dir, "registry.yaml"), await readExampleRegistry());
  const auditDb = join(dir, "policyd.db");
  targets.push(
    await spawnServer("bare", ["run", "-A", "tests/bench/servers.ts", "bare"], {}, "/bare"),
    await spawnServer(
      "insert",
      ["run", "-A", "tests/bench/servers.ts", "insert", join(dir, "insert.db")],
      {},
      "/insert?package=requests",
    ),
    await spawnPolicyd("evaluate", REPO, join(dir, "policyd.db")),
  );
  if (pgDatabase) {
    await pgAdmin((sql) => sql.unsafe(`CREATE DATABASE "${pgDatabase}"`));
    targets.push(
      await spawnPolicyd("postgres", REPO, join(dir, "unused.db"), {
        DATABASE_URL: `${POSTGRES_SERVER}/${pgDatabase}`,
      }),
    );
  }
  // The `answer` baseline serves what policyd answers, byte for byte the same document.
  const evaluateUrl = targets.find((t) => t.name === "evaluate")!.url;
  const answerPath = join(dir, "answer.json");
  await Deno.writeTextFile(answerPath, await (await fetch(evaluateUrl)).text());
  targets.push(
    await spawnServer(
      "answer",
      ["run", "-A", "tests/bench/servers.ts", "answer", answerPath],
      {},
      "/answer",
    ),
  );
  if (COMPARE_REPO) {
    targets.push(await spawnPolicyd("compare", COMPARE_REPO, join(dir, "compare.db"), COMPARE_ENV));
  }
  const WARM = 300;
  for (const target of targets) await warm(target.url, WARM);
  const upstreamCallsAfterWarmUp = Object.values(upstream.calls).reduce((a, b) => a + b, 0);

  console.log(
    `evaluate benchmark: wrk -t${THREADS} -c${CONNECTIONS} -d${SECONDS}s, ${ROUNDS} alternating rounds, ` +
      `${Deno.build.os}/${Deno.build.arch}, deno ${Deno.version.deno}, policyd LOG_LEVEL=${LOG_LEVEL}`,
  );
  const names = targets.map((t) => t.name).filter((name) => !ONLY || ONLY.has(name));
  const withBare = names.includes("bare") && names.includes("insert") &&
    names.includes("answer") && names.includes("evaluate");
  const withPostgres = names.includes("postgres") && names.includes("evaluate");
  console.log(
    `round  ${names.map((n) => `${n} req/s`.padStart(16)).join("")}` +
      `${names.map((n) => `${n} CPU µs/req`.padStart(20)).join("")}` +
      (withBare ? "   insert/bare   answer/bare   evaluate/bare" : "") +
      (withPostgres ? "   postgres/sqlite" : ""),
  );
  const ratios = {
    insert: [] as number[],
    answer: [] as number[],
    evaluate: [] as number[],
    compare: [] as number[],
    postgres: [] as number[],
  };
  const cpu: Record<string, number[]> = {};
  let answeredEvaluations = WARM;
  let answeredPostgres = WARM;
  let errors = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const rps: Record<string, number> = {};
    const cpuUs: Record<string, number | null> = {};
    for (const target of targets) {
      if (ONLY && !ONLY.has(target.name)) continue;
      const result = await wrk(
        target.url,
        target.process.pid,
        target.name === "postgres" ? pgDatabase ?? undefined : undefined,
      );
      if (result.dbCpuPerRequestUs !== null) {
        (cpu["postgres server"] ??= []).push(result.dbCpuPerRequestUs);
      }
      rps[target.name] = result.rps;
      cpuUs[target.name] = result.cpuPerRequestUs;
      if (result.cpuPerRequestUs !== null) {
        (cpu[target.name] ??= []).push(result.cpuPerRequestUs);
      }
      errors += result.errors;
      if (target.name === "evaluate") answeredEvaluations += result.requests;
      if (target.name === "postgres") answeredPostgres += result.requests;
    }
    let line = `${String(round).padStart(5)}  ${
      names.map((n) => rps[n].toFixed(0).padStart(16)).join("")
    }${names.map((n) => (cpuUs[n]?.toFixed(1) ?? "n/a").padStart(20)).join("")}`;
    if (withBare) {
      ratios.insert.push(rps.insert / rps.bare);
      ratios.answer.push(rps.answer / rps.bare);
      ratios.evaluate.push(rps.evaluate / rps.bare);
      if (COMPARE_REPO) ratios.compare.push(rps.compare / rps.bare);
      line += `${(rps.insert / rps.bare).toFixed(2).padStart(14)}${
        (rps.answer / rps.bare).toFixed(2).padStart(14)
      }${(rps.evaluate / rps.bare).toFixed(2).padStart(16)}`;
    }
    if (withPostgres) {
      ratios.postgres.push(rps.postgres / rps.evaluate);
      line += (rps.postgres / rps.evaluate).toFixed(2).padStart(18);
    }
    console.log(line);
  }
  if (withPostgres) {
    console.log(
      `median  postgres/sqlite ${median(ratios.postgres).toFixed(2)}   ` +
        "(policyd on PostgreSQL vs on SQLite, same rounds; goal ≥ 0.50)",
    );
  }
  if (withBare) {
    console.log(
      `median  insert/bare ${median(ratios.insert).toFixed(2)}   answer/bare ${
        median(ratios.answer).toFixed(2)
      }   evaluate/bare ${median(ratios.evaluate).toFixed(2)}   (goal: evaluate ≥ 0.40 × bare)${
        COMPARE_REPO ? `   compare/bare ${median(ratios.compare).toFixed(2)}` : ""
      }`,
    );
  }
  if (cpu["postgres server"] && cpu.postgres) {
    console.log(
      `median CPU per request on PostgreSQL: policyd ${median(cpu.postgres).toFixed(1)} µs + ` +
        `the PostgreSQL server ${median(cpu["postgres server"]).toFixed(1)} µs` +
        (cpu.evaluate
          ? ` (SQLite: policyd ${median(cpu.evaluate).toFixed(1)} µs, all in-process); ` +
            `an instance bound by its own CPU, its database elsewhere, answers ${
              (median(cpu.evaluate) / median(cpu.postgres)).toFixed(2)
            } × SQLite's rate`
          : ""),
    );
  }
  if (cpu.evaluate && cpu.bare) {
    console.log(
      `median CPU per request: ${
        names.map((n) => `${n} ${median(cpu[n]).toFixed(1)} µs`).join(", ")
      }; evaluate costs ${(median(cpu.evaluate) / median(cpu.bare)).toFixed(1)} × a bare request`,
    );
  }

  // Stop policyd (graceful: the SIGTERM path commits what is pending), then count its rows.
  const policyd = targets.splice(targets.findIndex((t) => t.name === "evaluate"), 1)[0];
  policyd.process.kill("SIGTERM");
  await policyd.process.status;
  const db = new DatabaseSync(auditDb, { readOnly: true });
  const rows = Number((db.prepare("SELECT COUNT(*) AS n FROM audit_log").get() as { n: number }).n);
  db.close();
  const upstreamCalls = Object.values(upstream.calls).reduce((a, b) => a + b, 0);
  console.log(
    `audit rows ${rows} for ${answeredEvaluations} answered evaluations ` +
      `(${rows >= answeredEvaluations ? "every answer audited" : "MISSING ROWS"}); ` +
      `errors ${errors}; upstream calls during the rounds ${
        upstreamCalls - upstreamCallsAfterWarmUp
      } (0 = cache warm)`,
  );
  if (rows < answeredEvaluations || errors > 0) Deno.exitCode = 1;
  if (pgDatabase) {
    const pg = targets.splice(targets.findIndex((t) => t.name === "postgres"), 1)[0];
    pg.process.kill("SIGTERM");
    await pg.process.status;
    const sql = postgres(`${POSTGRES_SERVER}/${pgDatabase}`, { max: 1, onnotice: () => {} });
    const pgRows = Number((await sql`SELECT COUNT(*)::int AS n FROM audit_log`)[0].n);
    await sql.end({ timeout: 1 });
    console.log(
      `PostgreSQL audit rows ${pgRows} for ${answeredPostgres} answered evaluations ` +
        `(${pgRows >= answeredPostgres ? "every answer audited" : "MISSING ROWS"})`,
    );
    if (pgRows < answeredPostgres) Deno.exitCode = 1;
  }
} finally {
  for (const target of targets) {
    target.process.kill("SIGTERM");
    await target.process.status;
  }
  await upstream.close();
  if (pgDatabase) {
    await pgAdmin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS "${pgDatabase}" WITH (FORCE)`));
  }
  await Deno.remove(dir, { recursive: true });
}
