/**
 * Scanner benchmark: one pass (and a second, cached one) over a registry of
 * 5,000 packages against the fake upstream with 20 ms added to every answer.
 * Prints the pass time and the upstream calls per package.
 *
 *   deno run -A tests/bench/scanner.ts [packages] [latency_ms]
 *
 * @module
 */
import { runScanPass } from "../../src/scanner/scan_pass.ts";
import { createOsvScanSource } from "../../src/lookups/osv_scan.ts";
import { loadSettings, optionsOf } from "../../src/settings.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { createMemoryCache } from "../../src/cache/memory.ts";
import { createPypiSource } from "../../src/lookups/pypi.ts";
import { withLicenseCache } from "../../src/lookups/cached.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import type { CompiledRegistry } from "../../src/core/types.ts";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";

const packages = Number(Deno.args[0] ?? 5000);
const latencyMs = Number(Deno.args[1] ?? 20);

const upstream = await startFakeUpstream({ fixtures: false });
upstream.osv.latencyMs = latencyMs;
upstream.pypi.latencyMs = latencyMs;
const names = upstream.addSyntheticPackages(packages, { vulnerableEvery: 10, withTwins: true });
const dir = await Deno.makeTempDir({ prefix: "policyd-bench-" });
const store = openSqliteStore(`${dir}/audit.db`);
const cache = createMemoryCache();
const options = optionsOf(loadSettings({
  OSV_API_URL: upstream.url,
  PYPI_URL: upstream.url,
  POLICY_PROJECT_NAME: "policyd-bench",
}));
const registry: CompiledRegistry = {
  version: "bench",
  compiled_at: new Date().toISOString(),
  policies: {
    cve_threshold: 7.0,
    block_on_cve: true,
    unversioned_cve_scope: "latest",
    licenses: { allowed: ["MIT"], denied: [] },
    unknown_license_policy: "provisional",
    on_missing_data: "allow",
    min_release_age_days: 0,
  },
  packages: [...names].sort().map((name) => ({ name, status: "approved" as const })),
  exceptions: [],
};
const licenses = withLicenseCache(createPypiSource(options.lookups, silentLogger), cache, 3600);

console.log(`scanner bench: ${packages} packages, ${latencyMs} ms upstream latency`);
for (const label of ["first pass", "second pass (cached details)"]) {
  upstream.resetCalls();
  const started = performance.now();
  const rows = await runScanPass({
    vulnerabilities: createOsvScanSource({
      lookups: options.lookups,
      cache: { store: cache, ttlSeconds: options.cache.ttlSeconds },
      log: silentLogger,
    }),
    scanner: options.scanner,
    registry,
    licenses,
    audit: store.audit,
    log: silentLogger,
  });
  const ms = performance.now() - started;
  const c = upstream.calls;
  const total = c["osv.querybatch"] + c["osv.vulns"] + c["pypi.project"] + c["pypi.release"];
  console.log(
    `${label}: ${ms.toFixed(0)} ms, ${rows} alert rows; upstream calls: ` +
      `${c["osv.querybatch"]} querybatch, ${c["osv.vulns"]} vulns/{id}, ${
        c["pypi.project"]
      } pypi ` +
      `= ${(total / packages).toFixed(3)} per package`,
  );
}

await store.close();
await upstream.close();
await Deno.remove(dir, { recursive: true });
