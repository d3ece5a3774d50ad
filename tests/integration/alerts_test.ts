/**
 * Alerts end to end with real receivers on loopback (issue #32): retries
 * until a refusing receiver accepts, each event exactly once per key; a
 * receiver down across a restart of policyd gets everything afterwards; the
 * signature verifies with the shared secret.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { loadSettings } from "../../src/settings.ts";
import { createLogger } from "../../src/log/logger.ts";
import { noLicenseData, noVulnerabilityData } from "../../src/lookups/none.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { startServer } from "../../src/server.ts";
import { createAlertReceiver, waitFor } from "../helpers/alert_receiver.ts";
import { call } from "../helpers/approvals.ts";
import { startFakeGithub } from "../helpers/fake_github.ts";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import { startTestServer } from "../helpers/server.ts";

const SECRET = "alerts-test-secret-0123456789";

function alertEnv(receiverUrl: string, dir: string) {
  return loadSettings({
    POLICY_DB_PATH: join(dir, "policyd.db"),
    REGISTRY_PATH: join(dir, "registry.yaml"),
    REGISTRY_RELOAD_INTERVAL: "0",
    CVE_SCAN_SCHEDULE: "off",
    REDIS_URL: "none",
    ALERTS_WEBHOOK_URL: receiverUrl,
    ALERTS_WEBHOOK_SECRET: SECRET,
    ALERTS_RETRY_BASE_MS: "20",
    ALERTS_POLL_MS: "50",
  });
}

async function serve(receiverUrl: string, dir: string) {
  return await startServer(alertEnv(receiverUrl, dir), {
    log: createLogger(
      Deno.env.get("ALERTS_TEST_LOG") ? "debug" : "error",
      (l) => Deno.env.get("ALERTS_TEST_LOG") && console.error(l),
    ),
    hostname: "127.0.0.1",
    port: 0,
    lookups: { vulnerabilities: noVulnerabilityData, licenses: noLicenseData },
  });
}

async function prepare(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "policyd-alerts-" });
  await Deno.writeTextFile(join(dir, "registry.yaml"), await readExampleRegistry());
  return dir;
}

const request = (url: string, pkg: string, project = "web") =>
  call(url, "POST", "/api/v1/approval-requests", {
    json: { package: pkg, rationale: "needed for the alerts test" },
    headers: { "x-policy-project": project },
  });

Deno.test("a receiver that refuses the first three deliveries gets each event exactly once, signed", async () => {
  const dir = await prepare();
  const receiver = createAlertReceiver(SECRET);
  receiver.failNext(3);
  const server = await serve(receiver.url, dir);
  try {
    equal((await request(server.url, "left-pad")).status, 202);
    equal((await request(server.url, "left-pad", "api")).status, 202, "collapsed: no second event");
    equal((await request(server.url, "right-pad")).status, 202);
    await waitFor(() => receiver.accepted().length === 2, "two accepted deliveries");
    await new Promise((resolve) => setTimeout(resolve, 300)); // no repeats come later
    const accepted = receiver.accepted();
    equal(new Set(accepted).size, accepted.length, "each key accepted once");
    equal(receiver.seen.filter((s) => !s.accepted).length, 3);
    ok(receiver.seen.every((s) => s.signatureOk), "every delivery verifies with the secret");
    ok(receiver.seen.every((s) => s.event === "request_filed"));
    deepStrictEqual(
      receiver.seen.filter((s) => s.accepted).map((s) => s.body.package).sort(),
      ["left-pad", "right-pad"],
    );
    const first = receiver.seen.find((s) => s.accepted)!;
    equal(first.body.id, first.key);
    const listed = await call(server.url, "GET", "/api/v1/alerts");
    equal(listed.status, 200);
    deepStrictEqual(listed.body.items.map((i: { state: string }) => i.state), [
      "delivered",
      "delivered",
    ]);
    equal(listed.body.backlog.pending, 0);
    const health = await call(server.url, "GET", "/api/v1/health");
    deepStrictEqual(health.body.alerts.destinations, ["webhook"]);
  } finally {
    await server.shutdown();
    await receiver.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a receiver down across a restart of policyd gets everything afterwards", async () => {
  const dir = await prepare();
  const receiver = createAlertReceiver(SECRET);
  await receiver.stop(); // the port is known; nothing listens on it
  const first = await serve(receiver.url, dir);
  try {
    equal((await request(first.url, "left-pad")).status, 202);
    equal((await request(first.url, "right-pad")).status, 202);
    await waitFor(async () => {
      const listed = await call(first.url, "GET", "/api/v1/alerts");
      return listed.body.items.every((i: { attempts: number }) => i.attempts >= 1);
    }, "failed tries");
    const health = await call(first.url, "GET", "/api/v1/health");
    equal(health.body.alerts.pending, 2);
  } finally {
    await first.shutdown();
  }
  receiver.start();
  const second = await serve(receiver.url, dir);
  try {
    await waitFor(() => receiver.accepted().length === 2, "deliveries after the restart");
    deepStrictEqual(receiver.seen.map((s) => s.body.package).sort(), ["left-pad", "right-pad"]);
    ok(receiver.seen.every((s) => s.signatureOk));
  } finally {
    await second.shutdown();
    await receiver.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an operator's approval reaches the receiver as rule_changed with before and after", async () => {
  const dir = await prepare();
  const receiver = createAlertReceiver(SECRET);
  const server = await serve(receiver.url, dir);
  try {
    equal((await request(server.url, "left-pad")).status, 202);
    const approved = await call(server.url, "POST", "/api/v1/registry/proposals", {
      json: { rule: { name: "left-pad", status: "approved", reason: "reviewed" } },
    });
    ok(approved.status < 300, JSON.stringify(approved.body));
    await waitFor(
      () => receiver.seen.some((s) => s.event === "rule_changed"),
      "a rule_changed delivery",
    );
    const change = receiver.seen.find((s) => s.event === "rule_changed")!;
    equal(change.body.package, "left-pad");
    const data = change.body.data as { before: unknown; after: { status: string } };
    equal(data.before, null);
    equal(data.after.status, "approved");
    ok(change.signatureOk);
  } finally {
    await server.shutdown();
    await receiver.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("policyd alerts test sends a signed sample; an unknown or unset destination is an error", async () => {
  const { run } = await import("../../cli/policyd/program.ts");
  const receiver = createAlertReceiver(SECRET);
  const out: string[] = [];
  const io = (env: Record<string, string>) => ({
    stdout: (t: string) => void out.push(t),
    stderr: (t: string) => void out.push(t),
    env,
    stopSignal: new Promise<void>(() => {}),
  });
  try {
    const env = { ALERTS_WEBHOOK_URL: receiver.url, ALERTS_WEBHOOK_SECRET: SECRET };
    equal(await run(["alerts", "test", "webhook"], io(env)), 0);
    equal(receiver.accepted().length, 1);
    ok(receiver.seen[0].signatureOk);
    ok(out.join("").includes("sent a test alert to webhook"));
    equal(await run(["alerts", "test", "pager"], io(env)), 64);
    equal(await run(["alerts", "test", "slack"], io(env)), 1);
    ok(out.join("").includes("slack is not configured"));
    const github = startFakeGithub("acme", "registry");
    try {
      const githubEnv = {
        ALERTS_GITHUB_REPO: "acme/registry",
        GITHUB_TOKEN: "test-token",
        GITHUB_API_URL: github.url,
      };
      equal(await run(["alerts", "test", "github"], io(githubEnv)), 0);
      deepStrictEqual(github.issues.map((i) => i.title), ["[policyd] cve_alert: policyd-test"]);
      github.failNext("issues.listForRepo", 401);
      equal(await run(["alerts", "test", "github"], io(githubEnv)), 1);
      ok(
        out.join("").includes(
          "github refused the test alert: GitHub issues.listForRepo failed (401)",
        ),
      );
    } finally {
      await github.close();
    }
  } finally {
    await receiver.stop();
  }
});

Deno.test("the alerts dashboard lists deliveries and mutes and retries one", async () => {
  const dir = await prepare();
  const receiver = createAlertReceiver(SECRET);
  await receiver.stop(); // deliveries wait
  const server = await serve(receiver.url, dir);
  try {
    equal((await request(server.url, "left-pad")).status, 202);
    const page = await fetch(`${server.url}/dashboard/alerts`);
    equal(page.status, 200);
    const html = await page.text();
    ok(html.includes("request_filed") && html.includes("left-pad"));
    ok(html.includes('action="/dashboard/alerts/1/mute"'));
    const mute = await fetch(`${server.url}/dashboard/alerts/1/mute`, {
      method: "POST",
      redirect: "manual",
    });
    await mute.body?.cancel();
    equal(mute.status, 303);
    equal(mute.headers.get("location"), "/dashboard/alerts?done=mute");
    const listed = await call(server.url, "GET", "/api/v1/alerts");
    equal(listed.body.items[0].state, "muted");
    const shown = await (await fetch(`${server.url}/dashboard/alerts?done=mute`)).text();
    ok(shown.includes("The delivery is muted."));
    receiver.start();
    const retry = await fetch(`${server.url}/dashboard/alerts/1/retry`, {
      method: "POST",
      redirect: "manual",
    });
    await retry.body?.cancel();
    equal(retry.status, 303);
    await waitFor(() => receiver.accepted().length === 1, "the retried delivery");
    const missing = await fetch(`${server.url}/dashboard/alerts/99/retry`, {
      method: "POST",
      redirect: "manual",
    });
    await missing.body?.cancel();
    equal(missing.headers.get("location"), "/dashboard/alerts?done=not-found");
    const api404 = await call(server.url, "POST", "/api/v1/alerts/99/mute");
    equal(api404.status, 404);
    equal((await call(server.url, "GET", "/api/v1/alerts?state=lost")).status, 400);
  } finally {
    await server.shutdown();
    await receiver.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an upstream failing past ALERTS_UPSTREAM_DOWN_AFTER_S reaches the receiver as upstream_down", async () => {
  const dir = await prepare();
  const receiver = createAlertReceiver(SECRET);
  const upstream = await startFakeUpstream();
  upstream.osv.mode = "error500";
  const server = await startServer(
    loadSettings({
      POLICY_DB_PATH: join(dir, "policyd.db"),
      REGISTRY_PATH: join(dir, "registry.yaml"),
      REGISTRY_RELOAD_INTERVAL: "0",
      CVE_SCAN_SCHEDULE: "off",
      REDIS_URL: "none",
      POPULAR_PACKAGES_URL: "off",
      OSV_API_URL: upstream.url,
      PYPI_URL: upstream.url,
      ALERTS_WEBHOOK_URL: receiver.url,
      ALERTS_WEBHOOK_SECRET: SECRET,
      ALERTS_POLL_MS: "50",
      ALERTS_UPSTREAM_DOWN_AFTER_S: "0",
    }),
    { log: createLogger("error", () => {}), hostname: "127.0.0.1", port: 0 },
  );
  try {
    const evaluated = await call(server.url, "GET", "/api/v1/evaluate?package=requests");
    equal(evaluated.status, 200);
    await waitFor(() => receiver.accepted().length === 1, "upstream_down", 10_000);
    const [down] = receiver.seen;
    equal(down.event, "upstream_down");
    equal((down.body.data as { upstream: string }).upstream, "osv");
    equal(down.body.severity, "high");
    ok(down.signatureOk);
  } finally {
    await server.shutdown();
    await receiver.stop();
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("in org mode the alerts, their actions and the dashboard's actions are operator-only", async () => {
  const receiver = createAlertReceiver(SECRET);
  await receiver.stop();
  const server = await startTestServer({
    env: {
      AUTH_ENABLED: "true",
      AUTH_BACKEND: "header",
      ALERTS_WEBHOOK_URL: receiver.url,
      ALERTS_WEBHOOK_SECRET: SECRET,
    },
  });
  try {
    const user = { "x-forwarded-user": "ana", "x-forwarded-groups": "developers" };
    const admin = { "x-forwarded-user": "root", "x-forwarded-groups": "policy-admins" };
    equal((await request(server.url, "left-pad")).status, 401, "no identity");
    const filed = await call(server.url, "POST", "/api/v1/approval-requests", {
      json: { package: "left-pad", rationale: "needed for the alerts test" },
      headers: user,
    });
    equal(filed.status, 202);
    equal((await call(server.url, "GET", "/api/v1/alerts", { headers: user })).status, 403);
    equal((await call(server.url, "POST", "/api/v1/alerts/1/mute", { headers: user })).status, 403);
    const listed = await call(server.url, "GET", "/api/v1/alerts", { headers: admin });
    equal(listed.status, 200);
    equal(listed.body.items[0].event, "request_filed");
    const page = await fetch(`${server.url}/dashboard/alerts/1/mute`, {
      method: "POST",
      headers: user,
      redirect: "manual",
    });
    await page.body?.cancel();
    equal(page.headers.get("location"), "/dashboard/alerts?done=forbidden");
    const muted = await fetch(`${server.url}/dashboard/alerts/1/mute`, {
      method: "POST",
      headers: admin,
      redirect: "manual",
    });
    await muted.body?.cancel();
    equal(muted.headers.get("location"), "/dashboard/alerts?done=mute");
  } finally {
    await server.close();
  }
});
