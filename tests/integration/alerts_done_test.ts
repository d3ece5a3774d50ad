/**
 * The "done when" (issue #32), with real processes: a policyd server
 * on SQLite with the example registry, OSV and PyPI replayed on loopback, and
 * a signed-webhook receiver that is down while everything happens. A
 * scanner pass finds CVEs above the threshold and a malicious advisory for a
 * package a project evaluated yesterday; an agent files an approval request
 * and an operator approves it. policyd is restarted, the receiver comes up,
 * and each event arrives once, signed.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { auditRow } from "../helpers/audit_rows.ts";
import { spawnUntil } from "../helpers/cli.ts";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import { createAlertReceiver, waitFor } from "../helpers/alert_receiver.ts";
import { call } from "../helpers/approvals.ts";

const SECRET = "done-when-secret-0123456789";

interface Delivery {
  event: string;
  package: string | null;
  state: string;
}

Deno.test("scanner CVEs, malware seen yesterday, a request and an approval reach a receiver that was down across a restart, once each, signed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-alerts-done-" });
  const upstream = await startFakeUpstream();
  upstream.addOsvRecord(JSON.parse(
    await Deno.readTextFile(new URL("../fixtures/alerts/MAL-2022-7439.json", import.meta.url)),
  ));
  const receiver = createAlertReceiver(SECRET);
  await receiver.stop(); // down while everything happens
  const dbPath = join(dir, "policyd.db");
  const registryPath = join(dir, "registry.yaml");
  await Deno.writeTextFile(registryPath, await readExampleRegistry());
  const yesterday = new Date(Date.now() - 86_400_000);
  const seed = openSqliteStore(dbPath, { now: () => yesterday });
  await seed.audit.insert(auditRow({
    package: "requestts",
    version: "0.1.0",
    project: "shop-api",
    verdict: "PROVISIONALLY_ALLOWED",
    source: "hook",
  }));
  await seed.close();
  const env = {
    POLICY_DB_PATH: dbPath,
    REGISTRY_PATH: registryPath,
    REGISTRY_PROPOSER: "local_file",
    REGISTRY_RELOAD_INTERVAL: "0",
    REDIS_URL: "none",
    OSV_API_URL: upstream.url,
    PYPI_URL: upstream.url,
    POPULAR_PACKAGES_URL: "off",
    // Deno's own test hook: the cron job fires 300 ms after start (one pass per minute is claimed).
    CVE_SCAN_SCHEDULE: "* * * * *",
    DENO_CRON_TEST_SCHEDULE_OFFSET: "300",
    ALERTS_WEBHOOK_URL: receiver.url,
    ALERTS_WEBHOOK_SECRET: SECRET,
    ALERTS_RETRY_BASE_MS: "50",
    ALERTS_MAX_ATTEMPTS: "50",
    ALERTS_POLL_MS: "100",
    LOG_LEVEL: "warn",
  };
  const serve = () =>
    spawnUntil("cli/policyd.ts", ["serve", "--port", "0"], /listening on (\S+)/, {
      cwd: dir,
      env,
      timeoutMs: 60_000,
    });
  let running = await serve();
  try {
    const url = running.match[1];
    const kinds = async () =>
      ((await call(url, "GET", "/api/v1/alerts")).body.items as Delivery[]).map((d) => d.event);
    await waitFor(
      async () => (await kinds()).includes("malicious_seen"),
      "the scan pass's alerts",
      30_000,
    );
    const filed = await call(url, "POST", "/api/v1/approval-requests", {
      json: { package: "left-pad", rationale: "string padding for the report export" },
      headers: { "x-policy-project": "shop-api", "x-policy-agent-model": "claude-sonnet-4-5" },
    });
    equal(filed.status, 202);
    const approved = await call(url, "POST", "/api/v1/registry/proposals", {
      json: { rule: { name: "left-pad", status: "approved", reason: "reviewed" } },
    });
    equal(approved.status, 200);
    await waitFor(async () => (await kinds()).includes("rule_changed"), "rule_changed", 10_000);
    const before = (await call(url, "GET", "/api/v1/alerts")).body.items as Delivery[];
    ok(before.every((d) => d.state === "pending"), "nothing reached the receiver yet");
    equal(receiver.accepted().length, 0);
  } finally {
    running.child.kill("SIGTERM");
    await running.child.status;
  }

  receiver.start();
  running = await serve();
  try {
    const url = running.match[1];
    const expected = ((await call(url, "GET", "/api/v1/alerts")).body.items as Delivery[]).length;
    await waitFor(() => receiver.accepted().length >= expected, "every delivery", 30_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const accepted = receiver.accepted();
    equal(accepted.length, expected);
    equal(new Set(accepted).size, accepted.length, "each event once");
    ok(receiver.seen.every((s) => s.signatureOk), "every delivery is signed");
    const got = receiver.seen.filter((s) => s.accepted);
    const byKind = (kind: string) => got.filter((s) => s.event === kind).map((s) => s.body);
    const scanned = await call(url, "GET", "/api/v1/audit?project=*&limit=500");
    const alertRows = (scanned.body.items as Array<{ package: string; denial_category: string }>)
      .filter((r) => r.denial_category === "DENIAL_CVE_ALERT").map((r) => r.package).sort();
    const cvePackages = byKind("cve_alert").map((b) => String(b.package)).sort();
    deepStrictEqual(cvePackages, alertRows, "one cve_alert per scanner alert row");
    ok(cvePackages.includes("idna") && cvePackages.includes("setuptools"));
    const [malware] = byKind("malicious_seen");
    equal(malware.package, "requestts");
    deepStrictEqual(
      (malware.data as { projects: Array<{ project: string; versions: string[] }> }).projects
        .map((p) => [p.project, p.versions]),
      [["shop-api", ["0.1.0"]]],
    );
    deepStrictEqual(byKind("request_filed").map((b) => b.package), ["left-pad"]);
    deepStrictEqual(byKind("rule_changed").map((b) => b.package), ["left-pad"]);
  } finally {
    running.child.kill("SIGTERM");
    await running.child.status;
    await receiver.stop();
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
  }
});
