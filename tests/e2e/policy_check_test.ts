/**
 * End-to-end: `policy check`, `audit`, `status` and `request-approval` as
 * subprocesses against a real policyd on loopback (and against no server).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import {
  deadServerUrl,
  expectedRuntimeNames,
  FIXTURES,
  policy,
  tempGitRepo,
  writePolicyToml,
} from "../../cli/policy/_testing.ts";

Deno.test("policy check exits by verdict against a real server", async (t) => {
  const server = await startTestServer();
  const dir = await tempGitRepo();
  try {
    await writePolicyToml(dir, server.url);
    const table: Array<[string[], number, RegExp]> = [
      [["check", "requests"], 0, /requests is ALLOWED \(registry: preferred\)/],
      [["check", "left-pad"], 1, /left-pad is PROVISIONALLY_ALLOWED/],
      [["check", "pycrypto"], 2, /pycrypto is DENIED \(DENIAL_BANNED\)/],
      [["check", "PyYAML", "--version", "5.0"], 2, /DENIAL_VERSION_CONSTRAINT/],
      [["check", "pyyaml", "--version", "6.0.1"], 0, /ALLOWED/],
    ];
    for (const [args, code, pattern] of table) {
      await t.step(`${args.join(" ")} → ${code}`, async () => {
        const ran = await policy(args, { cwd: dir });
        assert.equal(ran.code, code, ran.stderr);
        assert.match(ran.stdout, pattern);
      });
    }
    await t.step("--json prints the evaluation", async () => {
      const ran = await policy(["check", "pycrypto", "--json", "--agent-model", "m1"], {
        cwd: dir,
      });
      assert.equal(ran.code, 2);
      const json = JSON.parse(ran.stdout);
      assert.equal(json.verdict, "DENIED");
      assert.equal(json.replacement, "cryptography");
      assert.equal(json.transport_error, undefined);
    });
    await t.step("one warning line when the server had no upstream data", async () => {
      // This server runs without upstream lookups: every lookup is unavailable.
      const ran = await policy(["check", "requests"], { cwd: dir });
      assert.equal(ran.code, 0);
      assert.equal(
        ran.stderr.trimEnd(),
        "policy: warning: vulnerability and license data was unavailable for this decision " +
          "(the server could not reach OSV or PyPI)",
      );
      const banned = await policy(["check", "pycrypto"], { cwd: dir });
      assert.equal(banned.stderr, "", "a registry block needs no data: no warning");
      const json = JSON.parse((await policy(["check", "requests", "--json"], { cwd: dir })).stdout);
      assert.deepEqual(json.data.vulnerabilities, { status: "unavailable", fetched_at: null });
    });
    await t.step("a server error (invalid version) exits 4 with one line", async () => {
      const ran = await policy(["check", "requests", "--version", "not-a-version"], { cwd: dir });
      assert.equal(ran.code, 4);
      assert.equal(ran.stderr.trimEnd().split("\n").length, 1);
      assert.match(ran.stderr, /PEP 440/);
    });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("usage errors exit 64 with one line and no stack trace", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    const table: string[][] = [
      ["check"],
      ["check", "requests", "--bogus"],
      ["frobnicate"],
      ["request-approval", "left-pad"],
      [],
    ];
    for (const args of table) {
      await t.step(args.join(" ") || "(no arguments)", async () => {
        const ran = await policy(args, { cwd: dir });
        assert.equal(ran.code, 64);
        assert.ok(!/\n\s+at /.test(ran.stderr), ran.stderr);
        if (args.length) assert.equal(ran.stderr.trimEnd().split("\n").length, 1, ran.stderr);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("with the server down: fail-open check passes, fail-closed exits 3, status renders", async (t) => {
  const dir = await tempGitRepo({
    "pyproject.toml": `[project]\nname = "demo"\ndependencies = ["requests", "pycrypto"]\n`,
  });
  const url = deadServerUrl();
  try {
    await writePolicyToml(dir, url);
    await t.step("fail_open: exit 0, --json shows transport_error", async () => {
      const ran = await policy(["check", "pycrypto", "--json"], { cwd: dir });
      assert.equal(ran.code, 0);
      const json = JSON.parse(ran.stdout);
      assert.equal(json.transport_error, true);
      assert.equal(json.verdict, "ALLOWED");
    });
    await t.step("audit under fail_open exits 1", async () => {
      const ran = await policy(["audit", "--json"], { cwd: dir });
      assert.equal(ran.code, 1);
      assert.equal(JSON.parse(ran.stdout).summary.transport_errors, 2);
    });
    await t.step("status --json renders every section, server fail", async () => {
      const ran = await policy(["status", "--json"], { cwd: dir });
      assert.equal(ran.code, 0);
      const { sections } = JSON.parse(ran.stdout);
      assert.deepEqual(sections.map((s: { name: string }) => s.name), [
        "server",
        "hooks",
        "pending_approvals",
        "cve_denials",
        "dependencies",
        "upstreams",
      ]);
      for (const s of sections) assert.equal(typeof s.detail, "string");
      assert.equal(sections[0].flag, "fail");
      assert.match(sections[0].detail, new RegExp(url.replaceAll(".", "\\.")));
      assert.equal(sections[4].detail, "2 runtime dependencies in pyproject.toml");
    });
    await t.step("plain status renders six lines and exits 0", async () => {
      const ran = await policy(["status"], { cwd: dir });
      assert.equal(ran.code, 0);
      assert.equal(ran.stdout.trimEnd().split("\n").length, 6);
    });
    await writePolicyToml(dir, url, "fail_open = false\n");
    await t.step("fail-closed: check exits 3 with a one-line message", async () => {
      const ran = await policy(["check", "requests"], { cwd: dir });
      assert.equal(ran.code, 3);
      assert.equal(ran.stdout, "");
      assert.equal(ran.stderr.trimEnd().split("\n").length, 1);
      assert.match(ran.stderr, /unreachable/);
    });
    await t.step("fail-closed: audit and request-approval exit 3", async () => {
      assert.equal((await policy(["audit"], { cwd: dir })).code, 3);
      assert.equal(
        (await policy(["request-approval", "x", "--rationale", "r"], { cwd: dir })).code,
        3,
      );
    });
    await t.step("org mode without the API key variable is a clear config error", async () => {
      await writePolicyToml(dir, url, `mode = "org"\napi_key_env_var = "DEMO_KEY"\n`);
      const ran = await policy(["check", "requests"], { cwd: dir });
      assert.equal(ran.code, 78);
      assert.match(ran.stderr, /DEMO_KEY/);
    });
    await t.step("a bad .policy.toml is a one-line error", async () => {
      await Deno.writeTextFile(join(dir, ".policy.toml"), `mode = "team"\n`);
      const ran = await policy(["check", "requests"], { cwd: dir });
      assert.equal(ran.code, 78);
      assert.match(ran.stderr, /^policy: Invalid .*\.policy\.toml: key "mode"/);
      assert.equal(ran.stderr.trimEnd().split("\n").length, 1);
      assert.equal((await policy(["status", "--json"], { cwd: dir })).code, 0);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("audit --json counts exactly the runtime deps of every fixture pyproject.toml", async (t) => {
  const server = await startTestServer();
  const dir = await Deno.makeTempDir({ prefix: "policy-audit-" });
  try {
    await writePolicyToml(dir, server.url);
    for await (const entry of Deno.readDir(FIXTURES)) {
      if (!entry.name.endsWith(".toml")) continue;
      await t.step(entry.name, async () => {
        const text = await Deno.readTextFile(new URL(entry.name, FIXTURES));
        await Deno.writeTextFile(join(dir, "pyproject.toml"), text);
        const ran = await policy(["audit", "--json"], { cwd: dir });
        assert.ok([0, 1, 2].includes(ran.code), ran.stderr);
        const report = JSON.parse(ran.stdout);
        const expected = expectedRuntimeNames(text);
        assert.equal(report.results.length, expected.size);
        assert.deepEqual(
          new Set(report.results.map((r: { package: string }) => r.package)),
          expected,
        );
        assert.equal(report.summary.transport_errors, 0);
      });
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("request-approval files a request that changes nothing; policy approve approves it", async () => {
  // local_file applies rules at once, so the request only waits for an operator (SPEC §17.1).
  const server = await startTestServer();
  const dir = await tempGitRepo();
  try {
    await writePolicyToml(dir, server.url);
    const before = await Deno.readTextFile(server.registryPath);
    const ran = await policy(
      ["request-approval", "left-pad", "--rationale", "needed for padding"],
      { cwd: dir },
    );
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /^left-pad: filed for review \(id \d+\); not approved yet\./);
    const status = JSON.parse((await policy(["status", "--json"], { cwd: dir })).stdout);
    assert.equal(status.sections[0].flag, "ok");
    assert.equal(status.sections[2].flag, "warn");
    assert.match(status.sections[2].detail, /left-pad/);
    assert.equal(await Deno.readTextFile(server.registryPath), before, "the registry is unchanged");
    assert.equal((await policy(["check", "left-pad"], { cwd: dir })).code, 1, "still provisional");

    const notName = await policy(["approve", "left pad!"], { cwd: dir });
    assert.equal(notName.code, 64);
    assert.match(notName.stderr, /"left pad!" is not a package name/);
    const bad = await policy(["approve", "left-pad", "--status", "whitelisted"], { cwd: dir });
    assert.equal(bad.code, 64);
    assert.match(bad.stderr, /whitelisted.*(choices|Allowed)/i);
    const invalid = await policy(
      ["approve", "left-pad", "--status", "version-constrained"],
      { cwd: dir },
    );
    assert.equal(invalid.code, 4, "the server's validator refuses a constraint without versions");
    assert.match(invalid.stderr, /invalid: rule\.status: version-constrained needs min_version/);

    const approved = await policy(
      ["approve", "left-pad", "--reason", "reviewed: string padding"],
      { cwd: dir },
    );
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(
      approved.stdout,
      /^left-pad: approved \(local_file: applied\); the rule is live\./,
    );
    assert.match(
      await Deno.readTextFile(server.registryPath),
      /name: left-pad\n\s+status: approved/,
    );
    assert.equal((await policy(["check", "left-pad"], { cwd: dir })).code, 0, "now allowed");
    const after = JSON.parse((await policy(["status", "--json"], { cwd: dir })).stdout);
    assert.doesNotMatch(after.sections[2].detail, /left-pad/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
