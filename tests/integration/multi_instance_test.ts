/**
 * Two real `policyd serve` processes against one PostgreSQL database (a
 * scratch database of the server at 127.0.0.1:5432) and the real Redis
 * cache: their evaluations land in one `audit_log`, a rule proposed through
 * one instance (`local_file` on the shared registry file) is enforced by the
 * other within 5 s, the CVE scanner runs one pass per tick between them, and
 * either instance's reports see both instances' decisions.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { spawnUntil } from "../helpers/cli.ts";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import { createScratchDatabase, queryPostgres } from "../helpers/postgres.ts";
import { runPolicyd } from "../helpers/policyd_cli.ts";
import { testRedisUrl } from "../helpers/redis.ts";

const PACKAGES = ["requests", "flask", "numpy", "django", "attrs", "pycrypto", "not-in-registry"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function getJson(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.json() };
}

Deno.test("two instances share one audit log, one registry and one scanner", async () => {
  const db = await createScratchDatabase("multi");
  const dir = await Deno.makeTempDir({ prefix: "policyd-multi-" });
  const upstream = await startFakeUpstream();
  const registryPath = join(dir, "registry.yaml");
  await Deno.writeTextFile(registryPath, await readExampleRegistry());
  const env = (id: string): Record<string, string> => ({
    DATABASE_URL: db.url,
    REDIS_URL: testRedisUrl(),
    INSTANCE_ID: id,
    REGISTRY_PATH: registryPath,
    REGISTRY_PROPOSER: "local_file",
    // No polling: the other instance may only learn of a reload through the announcement.
    REGISTRY_RELOAD_INTERVAL: "0",
    OSV_API_URL: upstream.url,
    PYPI_URL: upstream.url,
    // Deno's own test hook: every cron job fires 300 ms after start and after each run.
    CVE_SCAN_SCHEDULE: "* * * * *",
    DENO_CRON_TEST_SCHEDULE_OFFSET: "300",
    LOG_LEVEL: "warn",
  });
  const instances = [];
  try {
    for (const id of ["policyd-a", "policyd-b"]) {
      instances.push(
        await spawnUntil("cli/policyd.ts", ["serve", "--port", "0"], /listening on (\S+)/, {
          cwd: dir,
          env: env(id),
          timeoutMs: 60_000,
        }),
      );
    }
    const [a, b] = instances.map((i) => i.match[1]);

    // 100 evaluations between them: 50 through each, concurrently.
    const statuses = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const [url, agent] = i % 2 === 0 ? [a, "agent-a"] : [b, "agent-b"];
        const pkg = PACKAGES[i % PACKAGES.length];
        const response = await fetch(`${url}/api/v1/evaluate?package=${pkg}&project=multi`, {
          headers: { "X-Policy-Agent-Model": agent },
        });
        await response.body?.cancel();
        return response.status;
      }),
    );
    assert.deepEqual(statuses, Array(100).fill(200));
    const [{ n }] = await queryPostgres(
      db.url,
      "SELECT COUNT(*)::int AS n FROM audit_log WHERE project = 'multi'",
    );
    assert.equal(n, 100, "exactly one row per evaluation, in the one audit_log");

    // Reports of either instance see both instances' decisions.
    for (const url of [a, b]) {
      const { body } = await getJson(`${url}/api/v1/reports/agents?project=multi`);
      const counts = Object.fromEntries(
        body.agents.map((r: { agent_model: string; evaluations: number }) => [
          r.agent_model,
          r.evaluations,
        ]),
      );
      assert.deepEqual(counts, { "agent-a": 50, "agent-b": 50 });
    }

    // A rule proposed through A is enforced by B within 5 s.
    const before = await getJson(`${b}/api/v1/evaluate?package=attrs`);
    assert.notEqual(before.body.registry_status, "banned");
    const proposed = await fetch(`${a}/api/v1/registry/proposals`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rule: { name: "attrs", status: "banned", reason: "multi-instance" } }),
    });
    const proposal = await proposed.json();
    assert.equal(proposed.status, 200);
    assert.equal(proposal.result.status, "applied", proposal.result.detail);
    const appliedAt = Date.now();
    let seen: { verdict?: string; registry_status?: string } = {};
    while (Date.now() - appliedAt < 5000) {
      seen = (await getJson(`${b}/api/v1/evaluate?package=attrs`)).body;
      if (seen.registry_status === "banned") break;
      await sleep(50);
    }
    assert.equal(seen.registry_status, "banned", "B enforces the rule A applied");
    assert.equal(seen.verdict, "DENIED");
    const healthA = (await getJson(`${a}/api/v1/health`)).body;
    const healthB = (await getJson(`${b}/api/v1/health`)).body;
    assert.equal(healthB.registry_version, healthA.registry_version);
    assert.deepEqual([healthA.instance, healthB.instance], ["policyd-a", "policyd-b"]);

    // One scanner pass per tick: both cron jobs fired many times; one pass ran per minute.
    const deadline = Date.now() + 10_000;
    let passes: Record<string, unknown>[] = [];
    while (Date.now() < deadline) {
      passes = await queryPostgres(
        db.url,
        "SELECT tick, instance FROM scanner_passes WHERE finished_at IS NOT NULL ORDER BY tick",
      );
      if (passes.length > 0) break;
      await sleep(100);
    }
    assert.ok(passes.length >= 1, "a scan pass ran");
    await sleep(1000); // more cron firings of both instances, all within claimed minutes
    passes = await queryPostgres(db.url, "SELECT tick, instance FROM scanner_passes");
    assert.equal(
      upstream.calls["osv.querybatch"],
      passes.length,
      "one OSV batch scan per claimed tick, whichever instance fired",
    );
    const last = passes.at(-1)!;
    for (const url of [a, b]) {
      const health = (await getJson(`${url}/api/v1/health`)).body;
      assert.ok(["policyd-a", "policyd-b"].includes(health.scanner.last_pass.instance));
      assert.equal(health.scanner.last_pass.instance, last.instance);
    }
  } finally {
    for (const instance of instances) {
      instance.child.kill("SIGTERM");
      await instance.child.status;
    }
    await upstream.close();
    await db.drop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve stops in one line when DATABASE_URL is unreachable or malformed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-multi-" });
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close(); // nothing listens there now
  try {
    const base = {
      REGISTRY_PATH: join(dir, "registry.yaml"),
      REDIS_URL: "none",
      CVE_SCAN_SCHEDULE: "off",
      LOG_LEVEL: "error",
    };
    const down = await runPolicyd(["serve", "--port", "0"], {
      ...base,
      DATABASE_URL: `postgres://app:s3cret@127.0.0.1:${port}/policyd`,
    });
    assert.equal(down.code, 1);
    assert.equal(down.stderr.trim().split("\n").length, 1, down.stderr);
    assert.match(down.stderr, /^policyd: cannot open the database: /);
    assert.equal(down.stderr.includes("s3cret"), false);
    const malformed = await runPolicyd(["serve", "--port", "0"], {
      ...base,
      DATABASE_URL: "mysql://db/policyd",
    });
    assert.equal(malformed.code, 1);
    assert.match(malformed.stderr, /Invalid setting DATABASE_URL: expected postgres:\/\//);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
