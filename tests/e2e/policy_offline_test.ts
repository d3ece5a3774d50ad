/**
 * End-to-end: registry rules hold offline (issue 27 point 6). A client that
 * talked to a real policyd keeps its registry snapshot (revalidated by ETag);
 * with the server stopped, `policy check`, `policy audit`, every agent's hook
 * and a real `git commit` through the installed pre-commit hook still deny
 * what the registry alone denies, saying it was decided offline.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { exec, gitIn, policy, tempGitRepo, writePolicyToml } from "../../cli/policy/_testing.ts";

// deno-lint-ignore no-explicit-any
type AnyJson = any;

const CLAUDE_DENY = (out: AnyJson) =>
  out?.hookSpecificOutput?.permissionDecision === "deny"
    ? out.hookSpecificOutput.permissionDecisionReason
    : null;

/** agent → where its answer says "deny" and why. */
const DENY_REASON: Record<string, (out: AnyJson) => string | null> = {
  claude: CLAUDE_DENY,
  vscode: CLAUDE_DENY,
  codex: CLAUDE_DENY,
  cursor: (out) => out?.permission === "deny" ? out.agent_message : null,
  gemini: (out) => out?.decision === "deny" ? out.reason : null,
  copilot: (out) => out?.permissionDecision === "deny" ? out.permissionDecisionReason : null,
};

async function shellPayload(agent: string, dir: string): Promise<string> {
  const text = await Deno.readTextFile(
    new URL(`../fixtures/agents/${agent}.json`, import.meta.url),
  );
  return JSON.stringify(JSON.parse(text.replaceAll("__CWD__", dir)).shell);
}

Deno.test("with the server stopped, the cached registry still denies banned and out-of-range packages everywhere", async (t) => {
  const server = await startTestServer();
  const cache = await Deno.makeTempDir({ prefix: "policy-cache-" });
  const dir = await tempGitRepo({
    "requirements.txt": "requests==2.32.3\n",
  });
  const env = { POLICY_CACHE_DIR: join(cache, "policy") };
  let stopped = false;
  try {
    await writePolicyToml(dir, server.url, "auto_request_approval = false\n");

    await t.step("GET /registry carries an ETag and answers 304 to If-None-Match", async () => {
      const first = await fetch(`${server.url}/api/v1/registry`);
      const etag = first.headers.get("etag");
      assert.equal(first.status, 200);
      assert.equal((await first.json()).version, "2026.11.21");
      assert.match(etag ?? "", /^(W\/)?"2026\.11\.21\.[A-Za-z0-9_-]+"$/, String(etag));
      const again = await fetch(`${server.url}/api/v1/registry`, {
        headers: { "if-none-match": etag! },
      });
      assert.equal(again.status, 304);
      assert.equal(await again.text(), "");
    });

    await t.step("an online check stores the snapshot in the user's cache directory", async () => {
      const ran = await policy(["check", "requests"], { cwd: dir, env });
      assert.equal(ran.code, 0, ran.stderr);
      const files = [...Deno.readDirSync(join(cache, "policy"))].map((e) => e.name);
      assert.equal(files.length, 1);
      assert.match(files[0], /^registry-127\.0\.0\.1_\d+\.json$/);
      const stored = JSON.parse(Deno.readTextFileSync(join(cache, "policy", files[0])));
      assert.equal(stored.version, "2026.11.21");
      assert.match(stored.etag, /^(W\/)?"2026\.11\.21\./);
      assert.ok(stored.packages.some((p: { name: string }) => p.name === "pycrypto"));
    });

    const init = await policy(["init", "--yes", "--no-claude-hooks", "--no-claude-md"], {
      cwd: dir,
      env,
    });
    assert.equal(init.code, 0, init.stderr);
    await gitIn(dir, ["add", ".policy.toml", "requirements.txt"]);
    await gitIn(dir, ["commit", "-q", "-m", "policy config"]);
    await server.close();
    stopped = true;

    await t.step("policy check pycrypto exits 2, decided offline (fail_open)", async () => {
      const ran = await policy(["check", "pycrypto"], { cwd: dir, env });
      assert.equal(ran.code, 2, ran.stderr);
      assert.match(ran.stdout, /pycrypto is DENIED \(DENIAL_BANNED\)/);
      assert.match(ran.stdout, /decided offline from registry version 2026\.11\.21/);
      const json = JSON.parse(
        (await policy(["check", "pycrypto", "--json"], { cwd: dir, env })).stdout,
      );
      assert.equal(json.offline_registry_version, "2026.11.21");
      assert.equal(json.transport_error, undefined);
    });

    await t.step(
      "a version below the registry minimum, and a range whose bound is, exit 2",
      async () => {
        const pinned = await policy(["check", "urllib3", "--version", "1.26.18"], {
          cwd: dir,
          env,
        });
        assert.equal(pinned.code, 2, pinned.stderr);
        assert.match(
          pinned.stdout,
          /DENIAL_VERSION_CONSTRAINT.*below the minimum 2\.2\.2.*offline/,
        );
        const range = await policy(["check", "urllib3<2"], { cwd: dir, env });
        assert.equal(range.code, 2, range.stderr);
        assert.match(range.stdout, /every version <2 is below the minimum 2\.2\.2/);
      },
    );

    await t.step("what needs live data is left to fail_open: allowed unchecked", async () => {
      const ran = await policy(["check", "requests"], { cwd: dir, env });
      assert.equal(ran.code, 0, ran.stderr);
      assert.match(ran.stderr, /unreachable/);
    });

    await t.step("policy audit denies pycrypto offline and leaves the rest unchecked", async () => {
      await Deno.writeTextFile(
        join(dir, "requirements.txt"),
        "requests==2.32.3\npycrypto==2.6.1\n",
      );
      const ran = await policy(["audit", "--format", "json"], { cwd: dir, env });
      assert.equal(ran.code, 2, ran.stderr);
      const rows = JSON.parse(ran.stdout).results;
      assert.equal(rows.find((r: AnyJson) => r.package === "pycrypto").verdict, "DENIED");
      assert.equal(rows.find((r: AnyJson) => r.package === "requests").transport_error, true);
    });

    for (const agent of Object.keys(DENY_REASON)) {
      await t.step(`${agent}: pip install pycrypto is denied offline`, async () => {
        // VS Code runs Claude Code's hooks (its payloads, `policy hook` without --agent).
        const args = ["claude", "vscode"].includes(agent) ? ["hook"] : ["hook", "--agent", agent];
        const ran = await policy(args, {
          cwd: dir,
          stdin: await shellPayload(agent, dir),
          env: { ...env, CLAUDE_PROJECT_DIR: dir },
        });
        assert.equal(ran.code, 0, ran.stderr);
        const reason = DENY_REASON[agent](ran.stdout.trim() ? JSON.parse(ran.stdout) : null);
        assert.ok(reason, `${agent}: ${ran.stdout} ${ran.stderr}`);
        assert.match(reason, /pycrypto is DENIED \(DENIAL_BANNED\)/);
        assert.match(reason, /decided offline from registry version 2026\.11\.21/);
      });
    }

    await t.step("git commit of a banned dependency fails through the installed hook", async () => {
      await gitIn(dir, ["add", "requirements.txt"]);
      const commit = await exec("git", ["commit", "-m", "add pycrypto"], { cwd: dir, env });
      assert.notEqual(commit.code, 0, commit.stderr);
      assert.match(commit.stderr, /POLICY_PRECOMMIT_DENIED .*"package":"pycrypto"/);
      assert.match(commit.stderr, /decided offline from registry version 2026\.11\.21/);
    });

    await t.step("fail-closed: registry denials exit 2, the rest exits 3", async () => {
      await Deno.writeTextFile(
        join(dir, ".policy.toml"),
        (await Deno.readTextFile(join(dir, ".policy.toml"))) + "fail_open = false\n",
      );
      assert.equal((await policy(["check", "pycrypto"], { cwd: dir, env })).code, 2);
      assert.equal((await policy(["check", "requests"], { cwd: dir, env })).code, 3);
    });
  } finally {
    if (!stopped) await server.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(cache, { recursive: true });
  }
});
