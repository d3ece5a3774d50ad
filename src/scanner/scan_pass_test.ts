import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { runScanPass } from "./scan_pass.ts";
import { createOsvScanSource } from "../lookups/osv_scan.ts";
import { optionsFromEnv } from "../config/area.ts";
import { lookupsArea } from "../lookups/settings.ts";
import { silentLogger } from "../log/logger.ts";
import { createMemoryCache } from "../cache/memory.ts";
import { createPypiSource } from "../lookups/pypi.ts";
import { osvQueryKey, withLicenseCache } from "../lookups/cached.ts";
import { openSqliteStore } from "../store/sqlite.ts";
import type { Store } from "../store/types.ts";
import type { CompiledRegistry, Policies, VulnerabilityFacts } from "../core/types.ts";
import { type FakeUpstream, startFakeUpstream } from "../../tests/helpers/fake_upstream.ts";

const POLICIES: Policies = {
  cve_threshold: 7.0,
  block_on_cve: false, // alerts are written anyway (SPEC §15.22)
  unversioned_cve_scope: "latest",
  licenses: { allowed: ["MIT"], denied: ["GPL-3.0-only"] },
  unknown_license_policy: "provisional",
  on_missing_data: "allow",
  min_release_age_days: 0,
};

function registryOf(names: string[], policies: Partial<Policies> = {}): CompiledRegistry {
  return {
    version: "scan-test-1",
    compiled_at: "2026-11-21T00:00:00Z",
    policies: { ...POLICIES, ...policies },
    packages: [...names].sort().map((name) => ({ name, status: "approved" as const })),
    exceptions: [],
  };
}

interface Harness {
  upstream: FakeUpstream;
  store: Store;
  cache: ReturnType<typeof createMemoryCache>;
  pass(registry: CompiledRegistry, options?: { batchTimeoutMs?: number }): Promise<number>;
  close(): Promise<void>;
}

async function harness(pageSize = 1000): Promise<Harness> {
  const upstream = await startFakeUpstream({ pageSize });
  const dir = await Deno.makeTempDir({ prefix: "policyd-scan-" });
  const store = openSqliteStore(`${dir}/audit.db`);
  const cache = createMemoryCache();
  const lookups = optionsFromEnv(lookupsArea, {
    OSV_API_URL: upstream.url,
    PYPI_URL: upstream.url,
    LOOKUP_TIMEOUT_MS: "2000",
  });
  const licenses = withLicenseCache(createPypiSource(lookups, silentLogger), cache, 3600);
  return {
    upstream,
    store,
    cache,
    pass: (registry, options = {}) =>
      runScanPass({
        vulnerabilities: createOsvScanSource({
          lookups,
          cache: { store: cache, ttlSeconds: 21600 },
          log: silentLogger,
          batchTimeoutMs: options.batchTimeoutMs,
        }),
        scanner: { projectName: "policyd-test" },
        registry,
        licenses,
        audit: store.audit,
        log: silentLogger,
      }),
    async close() {
      await store.close();
      await upstream.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Runs `use` with a fresh harness (`pageSize` OSV results a page), closed afterwards. */
async function withHarness(use: (h: Harness) => Promise<void>, pageSize = 1000): Promise<void> {
  const h = await harness(pageSize);
  try {
    await use(h);
  } finally {
    await h.close();
  }
}

const FIXTURE_PACKAGES = ["idna", "pycrypto", "pyyaml", "requests", "setuptools"];

Deno.test("a pass alerts on packages whose in-scope highest score reaches the threshold", () =>
  withHarness(async (h) => {
    equal(await h.pass(registryOf(FIXTURE_PACKAGES)), 2);
    const rows = await h.store.audit.list({ verdicts: ["CVE_ALERT"] }, 10);
    const byPackage = Object.fromEntries(rows.map((r) => [r.package, r]));
    deepStrictEqual(Object.keys(byPackage).sort(), ["idna", "setuptools"]);
    // idna: not on the PyPI fixtures, so the latest release is unknown and every vulnerability counts.
    deepStrictEqual(byPackage.idna.cve_ids, ["CVE-2024-3651", "CVE-2026-45409"]);
    equal(byPackage.idna.max_cvss, 7.5);
    equal(byPackage.idna.version, null);
    // setuptools: latest 39.2.0 (fixture); CVE-2013-1633 (fixed 0.7) is out of scope.
    deepStrictEqual(byPackage.setuptools.cve_ids, [
      "CVE-2022-40897",
      "CVE-2024-6345",
      "CVE-2025-47273",
      "CVE-2026-59890",
    ]);
    equal(byPackage.setuptools.max_cvss, 8.8);
    equal(byPackage.setuptools.version, "39.2.0");
    const row = byPackage.setuptools;
    equal(row.verdict, "CVE_ALERT");
    equal(row.denial_category, "DENIAL_CVE_ALERT");
    equal(row.project, "policyd-test");
    equal(row.requester, "cve-scanner");
    equal(row.source, "scanner");
    equal(row.registry_status, "approved");
    equal(row.registry_version, "scan-test-1");
    equal(row.license, null);
    // requests peaks at 6.1 for its latest release, pyyaml's records carry no score: no alerts.
    equal(h.upstream.calls["osv.querybatch"], 1);
  }));

Deno.test("a second pass over unchanged data writes no rows and fetches no details", () =>
  withHarness(async (h) => {
    const registry = registryOf(FIXTURE_PACKAGES);
    equal(await h.pass(registry), 2);
    const details = h.upstream.calls["osv.vulns"];
    ok(details > 0);
    equal(await h.pass(registry), 0);
    equal(h.upstream.calls["osv.vulns"], details, "records were fetched again");
    equal(h.upstream.calls["osv.querybatch"], 2);
  }));

Deno.test("a changed set of in-scope ids writes a new alert", () =>
  withHarness(async (h) => {
    equal(await h.pass(registryOf(FIXTURE_PACKAGES)), 2);
    // Scope `any` adds CVE-2013-1633 to setuptools; idna's set is unchanged.
    equal(await h.pass(registryOf(FIXTURE_PACKAGES, { unversioned_cve_scope: "any" })), 1);
    const last = await h.store.audit.lastAlert("setuptools");
    ok(last?.cve_ids.includes("CVE-2013-1633"));
    // A new critical record for requests.
    h.upstream.addOsvRecord({
      id: "GHSA-test-new0-0001",
      modified: "2026-11-01T00:00:00Z",
      aliases: ["CVE-2026-99999"],
      severity: [{ type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" }],
      affected: [{
        package: { ecosystem: "PyPI", name: "requests" },
        ranges: [{ type: "ECOSYSTEM", events: [{ introduced: "0" }] }],
      }],
    });
    equal(await h.pass(registryOf(FIXTURE_PACKAGES, { unversioned_cve_scope: "any" })), 1);
    const requests = await h.store.audit.lastAlert("requests");
    equal(requests?.max_cvss, 9.8);
    ok(requests?.cve_ids.includes("CVE-2026-99999"));
  }));

Deno.test("scope `latest` leaves out vulnerabilities fixed before the latest release", () =>
  withHarness(async (h) => {
    h.upstream.addPypiResponse("oldvuln", {
      info: { name: "oldvuln", version: "2.0", license: "MIT", classifiers: [] },
    });
    h.upstream.addOsvRecord({
      id: "PYSEC-TEST-OLD",
      modified: "2026-01-01T00:00:00Z",
      severity: [{ type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" }],
      affected: [{
        package: { ecosystem: "PyPI", name: "oldvuln" },
        ranges: [{ type: "ECOSYSTEM", events: [{ introduced: "0" }, { fixed: "1.5" }] }],
      }],
    });
    equal(await h.pass(registryOf(["oldvuln"])), 0);
    equal(await h.pass(registryOf(["oldvuln"], { unversioned_cve_scope: "any" })), 1);
  }));

Deno.test("per-query page tokens of the batch API are followed", () =>
  withHarness(async (h) => {
    equal(
      await h.pass(
        registryOf(FIXTURE_PACKAGES, { unversioned_cve_scope: "any", cve_threshold: 5.0 }),
      ),
      3,
    );
    // requests has 10 records: 5 pages of 2, so 5 batch calls (the other packages need fewer).
    equal(h.upstream.calls["osv.querybatch"], 5);
    const requests = await h.store.audit.lastAlert("requests");
    equal(requests?.cve_ids.length, 8); // every merged requests vulnerability
  }, 2));

Deno.test("the pass refreshes the version-less OSV entries of the lookup cache", () =>
  withHarness(async (h) => {
    await h.pass(registryOf(["requests"]));
    const cached = await h.cache.get<VulnerabilityFacts>(osvQueryKey("requests", null));
    ok(cached?.status === "ok");
    equal(cached.vulnerabilities[0].id, "CVE-2023-32681");
  }));

Deno.test("upstream failures skip packages without throwing or alerting", async (t) => {
  const h = await harness();
  try {
    for (const mode of ["error500", "hang", "malformed"] as const) {
      await t.step(mode, async () => {
        h.upstream.osv.mode = mode;
        equal(await h.pass(registryOf(FIXTURE_PACKAGES), { batchTimeoutMs: 300 }), 0);
      });
    }
    h.upstream.osv.mode = "ok";
    equal(await h.pass(registryOf(FIXTURE_PACKAGES)), 2);
  } finally {
    h.upstream.osv.mode = "ok";
    await h.close();
  }
});

Deno.test("5,000 packages: 5 batch calls and one detail call per distinct vulnerability", () =>
  withHarness(async (h) => {
    // Every 10th package has a PYSEC record and its GHSA twin: 500 packages, 1,000 records.
    const names = h.upstream.addSyntheticPackages(5000, { vulnerableEvery: 10, withTwins: true });
    const registry = registryOf(names);
    equal(await h.pass(registry), 500);
    equal(h.upstream.calls["osv.querybatch"], Math.ceil(5000 / 1000));
    equal(h.upstream.calls["osv.vulns"], 1000);
    equal(new Set(h.upstream.vulnIdsFetched).size, 1000);
    const alert = await h.store.audit.lastAlert(names[10]);
    deepStrictEqual(alert?.cve_ids, ["CVE-2099-100010"]); // the twins merged into one
    h.upstream.resetCalls();
    equal(await h.pass(registry), 0);
    equal(h.upstream.calls["osv.querybatch"], 5);
    equal(h.upstream.calls["osv.vulns"], 0);
  }));

Deno.test("a malicious advisory alerts for a registry package and for one audited in the last 30 days", () =>
  withHarness(async (h) => {
    const dir = new URL("../../tests/fixtures/threats/mal/", import.meta.url);
    for (const id of ["MAL-2022-7439", "MAL-2025-975", "MAL-2024-1036"]) {
      h.upstream.addOsvRecord(JSON.parse(await Deno.readTextFile(new URL(`${id}.json`, dir))));
    }
    const seen = (pkg: string) => ({
      package: pkg,
      version: null,
      license: null,
      verdict: "PROVISIONALLY_ALLOWED" as const,
      project: "web",
      requester: "dev",
      agent_model: null,
      agent_version: null,
      source: "check",
      denial_category: null,
      cve_ids: [],
      max_cvss: null,
      registry_status: null,
      registry_version: "scan-test-1",
      license_raw: null,
      reason: "seen",
    });
    await h.store.audit.insert(seen("reqzest"));
    // requestts is in the registry; reqzest was audited; djanggo was never seen: no alert.
    equal(await h.pass(registryOf(["requestts"])), 2);
    const rows = await h.store.audit.list({ categories: ["DENIAL_MALICIOUS"] }, 10);
    deepStrictEqual(rows.map((r) => r.package).sort(), ["requestts", "reqzest"]);
    const requestts = rows.find((r) => r.package === "requestts")!;
    equal(requestts.verdict, "CVE_ALERT");
    equal(requestts.registry_status, "approved");
    deepStrictEqual(requestts.threats?.map((t) => [t.kind, t.id]), [[
      "malicious",
      "MAL-2022-7439",
    ]]);
    equal(rows.find((r) => r.package === "reqzest")!.registry_status, null);
    equal(await h.pass(registryOf(["requestts"])), 0, "the same advisories alert once");
  }));
