/**
 * Issue 14's "Done when", end to end: a real policyd on loopback, the fake
 * upstream replaying real OSV and PyPI fixtures (and failing on demand), a
 * fixed clock, and the SQLite audit rows checked for what the API said.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import { startTestServer } from "../helpers/server.ts";
import { queryDb } from "../helpers/db.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { CRYPTOGRAPHY_PROJECT } from "../helpers/workflow_app.ts";

const NOW = new Date("2026-11-23T12:00:00Z");

// deno-lint-ignore no-explicit-any
async function evaluate(url: string, query: string): Promise<any> {
  const res = await fetch(`${url}/api/v1/evaluate?${query}`);
  equal(res.status, 200);
  return await res.json();
}

// deno-lint-ignore no-explicit-any
async function health(url: string): Promise<any> {
  return await (await fetch(`${url}/api/v1/health`)).json();
}

function withPolicies(yaml: string, lines: string): string {
  return yaml.replace("policies:\n", `policies:\n${lines}`);
}

Deno.test("with upstreams failing, a preferred package says its vulnerability data was unavailable", async (t) => {
  const upstream = await startFakeUpstream();
  upstream.osv.mode = "error500";
  upstream.pypi.mode = "hang";
  const env = {
    OSV_API_URL: `http://user:s3cret@${new URL(upstream.url).host}`,
    PYPI_URL: upstream.url,
    LOOKUP_TIMEOUT_MS: "300",
  };
  const server = await startTestServer({ env, build: { now: () => NOW } });
  const provisional = await startTestServer({
    env,
    build: { now: () => NOW },
    registryYaml: withPolicies(await readExampleRegistry(), "  on_missing_data: provisional\n"),
  });
  try {
    await t.step("health lists both upstreams as unknown before any call", async () => {
      const body = await health(server.url);
      deepStrictEqual(Object.keys(body.upstreams).sort(), ["osv", "pypi"]);
      equal(body.upstreams.osv.status, "unknown");
      equal(body.upstreams.pypi.last_success_at, null);
    });
    await t.step("ALLOWED by the registry, but data.vulnerabilities is unavailable", async () => {
      const body = await evaluate(server.url, "package=requests");
      equal(body.verdict, "ALLOWED");
      deepStrictEqual(body.data, {
        vulnerabilities: { status: "unavailable", fetched_at: null },
        license: { status: "unavailable", fetched_at: null },
      });
      match(body.reason, /vulnerability data was unavailable/);
      const [row] = queryDb(
        server.dbPath,
        "SELECT data FROM audit_log WHERE id = ?",
        body.audit_id,
      );
      deepStrictEqual(JSON.parse(String(row.data)), body.data, "the audit row keeps it");
    });
    await t.step("health says both upstreams are failing, credentials redacted", async () => {
      const { upstreams } = await health(server.url);
      equal(upstreams.osv.status, "failing");
      equal(upstreams.pypi.status, "failing");
      equal(upstreams.osv.last_error_at, NOW.toISOString());
      match(upstreams.osv.last_error, /HTTP 500/);
      ok(!upstreams.osv.last_error.includes("s3cret"), upstreams.osv.last_error);
      match(upstreams.pypi.last_error, /timed out/);
    });
    await t.step("on_missing_data: provisional makes it PROVISIONALLY_ALLOWED", async () => {
      const body = await evaluate(provisional.url, "package=requests");
      equal(body.verdict, "PROVISIONALLY_ALLOWED");
      equal(body.denial_category, null);
      match(body.reason, /vulnerability data was unavailable/);
    });
    await t.step("a banned package says skipped: no lookup was made", async () => {
      upstream.resetCalls();
      const body = await evaluate(server.url, "package=pycrypto");
      equal(body.verdict, "DENIED");
      deepStrictEqual(body.data, {
        vulnerabilities: { status: "skipped", fetched_at: null },
        license: { status: "skipped", fetched_at: null },
      });
      equal(upstream.calls["osv.query"], 0);
    });
    await t.step("the security and legal reports count the evaluations without data", async () => {
      const security = await (await fetch(`${server.url}/api/v1/reports/security`)).json();
      deepStrictEqual(security.data_availability, {
        evaluations: 2,
        vulnerabilities_unavailable: 1,
        license_unavailable: 1,
      });
      const legal = await (await fetch(`${server.url}/api/v1/reports/legal`)).json();
      equal(legal.license_unavailable, 1);
      equal(legal.unknown_licenses, 0, "unavailable is not UNKNOWN");
    });
  } finally {
    await provisional.close();
    await server.close();
    await upstream.close();
  }
});

Deno.test("the second lookup of a package says cached, with the first fetch's fetched_at", async () => {
  const upstream = await startFakeUpstream();
  let clock = NOW;
  // REDIS_URL unset: the embedded memory cache.
  const server = await startTestServer({
    env: { OSV_API_URL: upstream.url, PYPI_URL: upstream.url, REDIS_URL: "" },
    build: { now: () => clock },
  });
  try {
    const first = await evaluate(server.url, "package=requests&version=2.31.0");
    deepStrictEqual(first.data, {
      vulnerabilities: { status: "fresh", fetched_at: NOW.toISOString() },
      license: { status: "fresh", fetched_at: NOW.toISOString() },
    });
    clock = new Date("2026-11-23T12:20:00Z");
    const second = await evaluate(server.url, "package=requests&version=2.31.0");
    deepStrictEqual(second.data, {
      vulnerabilities: { status: "cached", fetched_at: NOW.toISOString() },
      license: { status: "cached", fetched_at: NOW.toISOString() },
    });
    equal(upstream.calls["osv.query"], 1);
    const batch = await fetch(`${server.url}/api/v1/evaluate/batch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ packages: [{ package: "requests", version: "2.31.0" }] }),
    });
    const { results } = await batch.json();
    equal(results[0].data.vulnerabilities.status, "cached", "batch results carry data too");
    const { upstreams } = await health(server.url);
    equal(upstreams.osv.status, "ok");
    equal(upstreams.pypi.status, "ok");
    equal(upstreams.osv.last_success_at, NOW.toISOString());
    equal(upstreams.osv.last_error, null);
  } finally {
    await server.close();
    await upstream.close();
  }
});

Deno.test("a live exception lifts a CVE denial and is listed; the same exception dated yesterday does not", async (t) => {
  const upstream = await startFakeUpstream();
  upstream.addPypiResponse("cryptography", CRYPTOGRAPHY_PROJECT);
  const env = { OSV_API_URL: upstream.url, PYPI_URL: upstream.url };
  const example = await readExampleRegistry();
  const exception = (expires: string) =>
    example.replace(
      /^exceptions:\n/m,
      `exceptions:
  - package: cryptography
    versions: "==46.0.6"
    vulnerabilities: [CVE-2026-39892]
    reason: "the affected code path is not used"
    expires: "${expires}"
    approved_by: security@example.com
`,
    );
  const live = await startTestServer({
    env,
    build: { now: () => NOW },
    registryYaml: exception("2026-12-31"),
  });
  const expired = await startTestServer({
    env,
    build: { now: () => NOW },
    registryYaml: exception("2026-11-22"),
  });
  try {
    await t.step("live: the CVE no longer denies and the exception is listed", async () => {
      const body = await evaluate(live.url, "package=cryptography&version=46.0.6");
      ok(!body.cves.some((c: { id: string }) => c.id === "CVE-2026-39892"), body.reason);
      deepStrictEqual(body.exceptions_applied, [{
        package: "cryptography",
        vulnerabilities: ["CVE-2026-39892"],
        reason: "the affected code path is not used",
        expires: "2026-12-31",
      }]);
      equal(body.verdict, "ALLOWED", body.reason);
      equal(body.denial_category, null);
    });
    await t.step("expired yesterday: ignored, the CVE denies", async () => {
      const body = await evaluate(expired.url, "package=cryptography&version=46.0.6");
      equal(body.verdict, "DENIED");
      equal(body.denial_category, "DENIAL_CVE");
      ok(body.reason.includes("CVE-2026-39892"));
      deepStrictEqual(body.exceptions_applied, []);
    });
    await t.step("the security report lists the expired exception", async () => {
      const report = await (await fetch(`${expired.url}/api/v1/reports/security`)).json();
      deepStrictEqual(report.exceptions.expired.map((e: { package: string }) => e.package), [
        "cryptography",
      ]);
      equal(report.exceptions.expired[0].days_left, -1);
      const soon = await (await fetch(`${live.url}/api/v1/reports/security`)).json();
      deepStrictEqual(soon.exceptions, { expiring: [], expired: [] }, "38 days away is not due");
    });
  } finally {
    await live.close();
    await expired.close();
    await upstream.close();
  }
});

Deno.test("exceptions survive the workshop's import (parse-yaml) and export round trip", async () => {
  const server = await startTestServer({ build: { now: () => NOW } });
  try {
    const parse = async (yaml: string) => {
      const res = await fetch(`${server.url}/api/v1/registry/parse-yaml`, {
        method: "POST",
        headers: { "content-type": "text/yaml" },
        body: yaml,
      });
      equal(res.status, 200);
      return (await res.json()).registry;
    };
    const imported = await parse(await readExampleRegistry());
    deepStrictEqual(imported.exceptions.map((e: { package: string }) => e.package), [
      "mysql-connector-python",
    ]);
    const exported = await fetch(`${server.url}/dashboard/registry/export.yaml`);
    equal(exported.status, 200);
    const text = await exported.text();
    match(text, /^exceptions:/m);
    deepStrictEqual((await parse(text)).exceptions, imported.exceptions);
    const live = await (await fetch(`${server.url}/api/v1/registry`)).json();
    deepStrictEqual(live.exceptions, imported.exceptions, "GET /registry serves them too");
  } finally {
    await server.close();
  }
});

Deno.test("min_release_age_days: a release uploaded 2 days ago is provisional, the upload time from PyPI", async () => {
  const upstream = await startFakeUpstream();
  // Real black 19.10b0 files were uploaded 2019-10-28T23:53:54Z; the clock stands 2 days later.
  const now = new Date("2019-10-31T09:00:00Z");
  const registryYaml = withPolicies(
    (await readExampleRegistry()).replace(
      /^packages:\n/m,
      "packages:\n  - name: black\n    status: preferred\n",
    ),
    "  min_release_age_days: 7\n",
  );
  const server = await startTestServer({
    env: { OSV_API_URL: upstream.url, PYPI_URL: upstream.url },
    build: { now: () => now },
    registryYaml,
  });
  try {
    const body = await evaluate(server.url, "package=black&version=19.10b0");
    equal(body.verdict, "PROVISIONALLY_ALLOWED", body.reason);
    equal(
      body.reason,
      "black==19.10b0 is preferred in the registry, but it was released 2 days ago; the policy waits 7 days",
    );
    const latest = await evaluate(server.url, "package=black");
    equal(latest.verdict, "PROVISIONALLY_ALLOWED", "without a version the latest release counts");
  } finally {
    await server.close();
    await upstream.close();
  }
});
