/**
 * The policy index against its upstream (issue 28 point 8): one project page
 * of 300 versions (PEP 691 JSON, one wheel each) fetched with `wrk` straight
 * from a loopback upstream index and through `policyd serve`, warm cache
 * (the page, the OSV and PyPI facts, the decided page), in alternating
 * rounds of the same run. Prints requests per second, each server's CPU time
 * per page, and the ratio of time per page (goal ≤ 1.5 × upstream); then
 * the time the pure page filter takes to decide the 300 versions warm, in
 * process (goal ≤ 20 ms).
 *
 *   deno run -A tests/bench/index.ts
 *   env: BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_CONNECTIONS (32), BENCH_THREADS (2),
 *        BENCH_LOG_LEVEL (policyd's LOG_LEVEL, default info), BENCH_WRK (wrk),
 *        BENCH_COMPARE_REPO=DIR (also `policyd serve` from the checkout DIR, `compare`,
 *          in the same rounds: before and after a change in one run),
 *        BENCH_COMPARE_ENV="NAME=VALUE …" (settings of `compare` only; with
 *          BENCH_COMPARE_REPO=. an A/B of a setting, e.g. LOG_LEVEL=warn)
 *
 * The project is `requests`, whose real OSV records (fixtures) apply to the
 * synthetic versions by their ranges, so the decisions do real work.
 *
 * @module
 */
import { join } from "node:path";
import { loadSettings, optionsOf } from "../../src/settings.ts";
import { createMemoryCache } from "../../src/cache/memory.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { createLookupSources } from "../../src/lookups/cached.ts";
import { compileRegistry, createSnapshot } from "../../src/registry/compile.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { decidePage } from "../../src/index/decide_page.ts";
import { pageFromJson } from "../../src/index/page.ts";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import {
  compareEnv,
  median,
  requireWrk,
  spawnServer,
  stopAll,
  type Target,
  warm,
  wrk,
} from "./wrk.ts";

function option(env: string, fallback: number): number {
  const value = Number(Deno.env.get(env) ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${env}: expected a number`);
  return value;
}

const ROUNDS = option("BENCH_ROUNDS", 3);
const WRK_OPTIONS = {
  wrk: await requireWrk(),
  threads: option("BENCH_THREADS", 2),
  connections: option("BENCH_CONNECTIONS", 32),
  seconds: option("BENCH_SECONDS", 5),
  headers: ["Accept: application/vnd.pypi.simple.v1+json"],
};
const LOG_LEVEL = Deno.env.get("BENCH_LOG_LEVEL") ?? "info";
const COMPARE_REPO = Deno.env.get("BENCH_COMPARE_REPO");
const COMPARE_ENV = compareEnv();
const VERSIONS = 300;
const PROJECT = "requests";

/** A PyPI-like PEP 691 page: one wheel per version, hashes, upload times, metadata. */
function syntheticPage(): Record<string, unknown> {
  const versions = Array.from({ length: VERSIONS }, (_, i) => `2.${Math.floor(i / 10)}.${i % 10}`);
  const files = versions.map((v, i) => ({
    filename: `requests-${v}-py3-none-any.whl`,
    url: `https://files.example/packages/${i}/requests-${v}-py3-none-any.whl`,
    hashes: { sha256: i.toString(16).padStart(64, "0") },
    "requires-python": ">=3.8",
    "core-metadata": { sha256: (i + 1).toString(16).padStart(64, "0") },
    "upload-time": new Date(Date.UTC(2015, 0, 1) + i * 86_400_000 * 10).toISOString(),
    size: 64_000 + i,
    yanked: false,
  }));
  return { meta: { "api-version": "1.1" }, name: PROJECT, files, versions };
}

const dir = await Deno.makeTempDir({ prefix: "policyd-bench-index-" });
const upstream = await startFakeUpstream();
const targets: Target[] = [];
try {
  const registryYaml = await readExampleRegistry();
  await Deno.writeTextFile(join(dir, "registry.yaml"), registryYaml);
  const page = syntheticPage();
  await Deno.writeTextFile(join(dir, "page.json"), JSON.stringify(page));
  const index = await spawnServer(
    "upstream",
    ["run", "-A", "tests/bench/servers.ts", "simple", join(dir, "page.json")],
    {},
    `/simple/${PROJECT}/`,
  );
  targets.push(index);
  const policyd = (name: string, cwd?: string, env: Record<string, string> = {}) =>
    spawnServer(
      name,
      ["run", "-A", "cli/policyd.ts", "serve", "--host", "127.0.0.1", "--port", "0"],
      {
        POLICY_DB_PATH: join(dir, `${name}.db`),
        REGISTRY_PATH: join(dir, "registry.yaml"),
        REGISTRY_RELOAD_INTERVAL: "0",
        CVE_SCAN_SCHEDULE: "off",
        OSV_API_URL: upstream.url,
        PYPI_URL: upstream.url,
        INDEX_UPSTREAM_URL: new URL("/simple/", index.url).href,
        LOG_LEVEL,
        ...env,
      },
      `/p/bench/simple/${PROJECT}/`,
      cwd,
    );
  targets.push(await policyd("policyd"));
  if (COMPARE_REPO) targets.push(await policyd("compare", COMPARE_REPO, COMPARE_ENV));
  const accept = { accept: "application/vnd.pypi.simple.v1+json" };
  for (const target of targets) await warm(target.url, 1000, accept);
  const served = await (await fetch(targets[1].url, { headers: accept })).json();
  const upstreamCallsAfterWarmUp = Object.values(upstream.calls).reduce((a, b) => a + b, 0);

  console.log(
    `index benchmark: a ${VERSIONS}-version page (${served.files.length} files stay), wrk -t${WRK_OPTIONS.threads} ` +
      `-c${WRK_OPTIONS.connections} -d${WRK_OPTIONS.seconds}s, ${ROUNDS} alternating rounds, ` +
      `deno ${Deno.version.deno}, policyd LOG_LEVEL=${LOG_LEVEL}`,
  );
  console.log(
    "round   upstream req/s   policyd req/s   upstream CPU µs/page   policyd CPU µs/page   policyd/upstream time" +
      (COMPARE_REPO ? "   compare req/s   compare CPU µs/page   compare/upstream time" : ""),
  );
  const ratios: number[] = [];
  const compareRatios: number[] = [];
  let errors = 0;
  const cpu = (us: number | null, width: number) => (us?.toFixed(0) ?? "n/a").padStart(width);
  for (let round = 1; round <= ROUNDS; round++) {
    const results = [];
    for (const target of targets) {
      const result = await wrk(target.url, target.process.pid, WRK_OPTIONS);
      errors += result.errors;
      results.push(result);
    }
    const [a, b, c] = results;
    ratios.push(a.rps / b.rps);
    let line = `${String(round).padStart(5)}${a.rps.toFixed(0).padStart(17)}${
      b.rps.toFixed(0).padStart(16)
    }${cpu(a.cpuPerRequestUs, 23)}${cpu(b.cpuPerRequestUs, 22)}${
      (a.rps / b.rps).toFixed(2).padStart(24)
    }`;
    if (c) {
      compareRatios.push(a.rps / c.rps);
      line += `${c.rps.toFixed(0).padStart(16)}${cpu(c.cpuPerRequestUs, 22)}${
        (a.rps / c.rps).toFixed(2).padStart(24)
      }`;
    }
    console.log(line);
  }
  const upstreamCalls = Object.values(upstream.calls).reduce((a, b) => a + b, 0);
  console.log(
    `median policyd/upstream time per page ${
      median(ratios).toFixed(2)
    } (goal ≤ 1.50); errors ${errors}; ` +
      `OSV/PyPI calls during the rounds ${
        upstreamCalls - upstreamCallsAfterWarmUp
      } (0 = cache warm)` +
      (COMPARE_REPO ? `; compare/upstream ${median(compareRatios).toFixed(2)}` : ""),
  );

  // The page filter alone, in process, warm: the same page and the same facts.
  const options = optionsOf(loadSettings({ OSV_API_URL: upstream.url, PYPI_URL: upstream.url }));
  const lookups = createLookupSources(
    options.lookups,
    { store: createMemoryCache(), ttlSeconds: options.cache.ttlSeconds },
    silentLogger,
  );
  const facts = {
    vulnerabilities: await lookups.vulnerabilities.query(PROJECT, null),
    license: await lookups.licenses.lookup(PROJECT, null),
  };
  const compiled = await compileRegistry(registryYaml);
  if (!compiled.ok) throw new Error("example registry does not compile");
  const snapshot = createSnapshot(compiled.registry, compiled.contentHash);
  const parsed = pageFromJson(page, "https://pypi.example/simple/requests/")!;
  const times: number[] = [];
  let kept = 0;
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    kept = decidePage(PROJECT, parsed, snapshot, facts, new Date()).page.files.length;
    times.push(performance.now() - started);
  }
  const warmMs = median(times.slice(10));
  console.log(
    `a ${VERSIONS}-version page decided in ${
      warmMs.toFixed(2)
    } ms warm (median of 20 after 10 warm-up; ` +
      `best ${Math.min(...times).toFixed(2)} ms; ${kept} files stay; goal ≤ 20 ms)`,
  );
  if (errors > 0) Deno.exitCode = 1;
} finally {
  await stopAll(targets);
  await upstream.close();
  await Deno.remove(dir, { recursive: true });
}
