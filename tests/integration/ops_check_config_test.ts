/**
 * `policyd check-config --json`: each check failing (or warning) in turn,
 * with the exit code and the rows it produces.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readExampleRegistry } from "../../src/registry/example.ts";
import type { CheckRow } from "../../cli/policyd/commands/config_checks.ts";
import { assertIncludes, runPolicyd } from "../helpers/policyd_cli.ts";

const CHECKS = [
  "settings",
  "registry_path",
  "registry_file",
  "registry_yaml",
  "database",
  "cache",
  "proposer",
  "auth",
];

interface Fixture {
  dir: string;
  env: Record<string, string>;
}

async function fixture(): Promise<Fixture> {
  const dir = await Deno.makeTempDir({ prefix: "policyd-check-" });
  await Deno.writeTextFile(join(dir, "registry.yaml"), await readExampleRegistry());
  await Deno.writeTextFile(join(dir, "a-file"), "not a directory\n");
  return {
    dir,
    env: { REGISTRY_PATH: join(dir, "registry.yaml"), POLICY_DB_PATH: join(dir, "policyd.db") },
  };
}

async function check(env: Record<string, string>) {
  const result = await runPolicyd(["check-config", "--json"], env);
  const report = JSON.parse(result.stdout) as { ok: boolean; rows: CheckRow[] };
  assert.deepEqual(
    report.rows.map((r) => r.check),
    CHECKS,
    "every check is a row, whatever failed",
  );
  const byCheck = Object.fromEntries(report.rows.map((r) => [r.check, r]));
  return { code: result.code, report, byCheck };
}

function statuses(rows: CheckRow[]): Record<string, string> {
  return Object.fromEntries(rows.map((r) => [r.check, r.status]));
}

Deno.test("check-config passes every check on a sound configuration", async () => {
  const f = await fixture();
  try {
    const { code, report } = await check(f.env);
    assert.equal(code, 0);
    assert.equal(report.ok, true);
    assert.deepEqual(Object.values(statuses(report.rows)), CHECKS.map(() => "ok"));
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("check-config fails or warns on each check in turn", async (t) => {
  const f = await fixture();
  const gitDir = join(f.dir, "repo");
  await Deno.mkdir(gitDir);
  await new Deno.Command("git", { args: ["init", "-q", gitDir], stdout: "null", stderr: "null" })
    .output();
  await Deno.writeTextFile(join(gitDir, "registry.yaml"), await readExampleRegistry());
  const cases: Array<{
    name: string;
    env: Record<string, string | undefined>;
    check: string;
    status: "warn" | "fail";
    code: number;
    detail: string;
  }> = [
    {
      name: "an invalid variable",
      env: { POLICY_PORT: "99999" },
      check: "settings",
      status: "fail",
      code: 1,
      detail: "POLICY_PORT",
    },
    {
      name: "an unknown log level",
      env: { LOG_LEVEL: "loud" },
      check: "settings",
      status: "fail",
      code: 1,
      detail: "LOG_LEVEL",
    },
    {
      name: "REGISTRY_PATH unset",
      env: { REGISTRY_PATH: undefined },
      check: "registry_path",
      status: "warn",
      code: 0,
      detail: "unset",
    },
    {
      name: "a registry that cannot be created",
      env: { REGISTRY_PATH: join(f.dir, "a-file", "registry.yaml") },
      check: "registry_file",
      status: "fail",
      code: 1,
      detail: "cannot be created",
    },
    {
      name: "a registry not created yet",
      env: { REGISTRY_PATH: join(f.dir, "new", "registry.yaml") },
      check: "registry_file",
      status: "warn",
      code: 0,
      detail: "does not exist yet",
    },
    {
      name: "an invalid registry",
      env: { REGISTRY_PATH: join(f.dir, "invalid.yaml") },
      check: "registry_yaml",
      status: "fail",
      code: 1,
      detail: "packages[0].status",
    },
    {
      name: "a registry with a YAML syntax error",
      env: { REGISTRY_PATH: join(f.dir, "broken.yaml") },
      check: "registry_yaml",
      status: "fail",
      code: 1,
      detail: "YAML syntax error",
    },
    {
      name: "an unwritable database directory",
      env: { POLICY_DB_PATH: join(f.dir, "a-file", "policyd.db") },
      check: "database",
      status: "fail",
      code: 1,
      detail: "not a directory",
    },
    {
      name: "a database path that is a directory",
      env: { POLICY_DB_PATH: f.dir },
      check: "database",
      status: "fail",
      code: 1,
      detail: "not a regular file",
    },
    {
      name: "an unreachable Redis (a warning only)",
      env: { REDIS_URL: "redis://127.0.0.1:1" },
      check: "cache",
      status: "warn",
      code: 0,
      detail: "did not answer",
    },
    {
      name: "a github proposer (the git host is not contacted)",
      env: { REGISTRY_REPO_URL: "https://git.invalid/acme/registry.git" },
      check: "proposer",
      status: "warn",
      code: 0,
      detail: "github",
    },
    {
      name: "a registry inside a git work tree",
      env: { REGISTRY_PATH: join(gitDir, "registry.yaml") },
      check: "proposer",
      status: "warn",
      code: 0,
      detail: "local_git",
    },
    {
      name: "anonymous mode on a non-loopback bind",
      env: { POLICY_HOST: "0.0.0.0" },
      check: "auth",
      status: "warn",
      code: 0,
      detail: "non-loopback",
    },
    {
      name: "a webhook backend without a verifier",
      env: { AUTH_ENABLED: "true", AUTH_BACKEND: "webhook" },
      check: "auth",
      status: "fail",
      code: 1,
      detail: "AUTH_VERIFY_URL",
    },
    {
      name: "header backend with malformed TRUSTED_PROXIES",
      env: { AUTH_ENABLED: "true", TRUSTED_PROXIES: "not-a-cidr" },
      check: "auth",
      status: "fail",
      code: 1,
      detail: "TRUSTED_PROXIES",
    },
  ];
  await Deno.writeTextFile(
    join(f.dir, "invalid.yaml"),
    "packages:\n  - name: foo\n    status: maybe\n",
  );
  await Deno.writeTextFile(join(f.dir, "broken.yaml"), "packages: [\n");
  try {
    for (const c of cases) {
      await t.step(c.name, async () => {
        const env = { ...f.env, ...c.env };
        for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
        const { code, byCheck, report } = await check(env as Record<string, string>);
        assert.equal(byCheck[c.check].status, c.status, JSON.stringify(byCheck[c.check]));
        assertIncludes(byCheck[c.check].detail, c.detail);
        assert.ok(byCheck[c.check].hint.length > 0, "a warning or failure carries a hint");
        assert.equal(code, c.code);
        assert.equal(report.ok, c.code === 0);
        const others = report.rows.filter((r) => r.check !== c.check && r.status === "fail");
        assert.deepEqual(others, [], "the other checks are unaffected");
      });
    }
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("check-config reports a live Redis as answering", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const redis = new Deno.Command("redis-server", {
    args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const f = await fixture();
  try {
    let status = "";
    for (let i = 0; i < 50 && status !== "ok"; i++) {
      const { byCheck } = await check({ ...f.env, REDIS_URL: `redis://127.0.0.1:${port}` });
      status = byCheck.cache.status;
      if (status !== "ok") await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, "ok");
  } finally {
    redis.kill("SIGTERM");
    await redis.status;
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("check-config without --json prints one row per check and the totals", async () => {
  const f = await fixture();
  try {
    const result = await runPolicyd(["check-config"], { ...f.env, POLICY_PORT: "x" });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^FAIL {2}settings +Invalid setting POLICY_PORT/m);
    for (const name of CHECKS) {
      assert.match(result.stdout, new RegExp(`^(OK|WARN|FAIL) +${name} `, "m"));
    }
    assertIncludes(result.stdout, "1 failures");
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("check-config warns on expired registry exceptions (they are ignored)", async () => {
  const f = await fixture();
  try {
    const yaml = (await readExampleRegistry()).replace(
      /^exceptions:\n/m,
      `exceptions:
  - package: requests
    vulnerabilities: [CVE-2024-35195]
    reason: "waived until the upgrade"
    expires: "2020-01-31"
`,
    );
    await Deno.writeTextFile(f.env.REGISTRY_PATH, yaml);
    const { code, byCheck } = await check(f.env);
    assert.equal(code, 0, "a warning does not fail the check");
    assert.equal(byCheck.registry_yaml.status, "warn");
    assertIncludes(byCheck.registry_yaml.detail, "requests (expired 2020-01-31)");
    assert.ok(
      !byCheck.registry_yaml.detail.includes("mysql-connector-python"),
      "live ones are fine",
    );
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});
