/**
 * End-to-end: `policy init` / `uninstall` in real git repositories, and the
 * installed pre-commit shim blocking a real `git commit` against a real policyd.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import {
  deadServerUrl,
  exec,
  gitIn,
  policy,
  tempGitRepo,
  writePolicyToml,
} from "../../cli/policy/_testing.ts";

const GOOD = `[project]\nname = "demo"\ndependencies = ["requests>=2.31"]\n`;
const BANNED = `[project]\nname = "demo"\ndependencies = ["requests>=2.31", "pycrypto==2.6.1"]\n`;
const FOREIGN_HOOK =
  `#!/bin/sh\necho ran >> "$(git rev-parse --show-toplevel)/.foreign-hook-ran"\n`;
const OTHER_SETTINGS = {
  permissions: { allow: ["Bash(ls)"] },
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo other" }] }] },
};

async function snapshot(dir: string, paths: string[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const p of paths) out[p] = await Deno.readTextFile(join(dir, p)).catch(() => null);
  return out;
}

const INSTALLED = [".policy.toml", ".git/hooks/pre-commit", ".claude/settings.json", "CLAUDE.md"];

Deno.test("policy init --yes is idempotent and keeps foreign hooks and settings", async () => {
  const dir = await tempGitRepo({ "pyproject.toml": GOOD, "CLAUDE.md": "# Notes\n" });
  try {
    await Deno.writeTextFile(join(dir, ".git/hooks/pre-commit"), FOREIGN_HOOK, { mode: 0o755 });
    await Deno.mkdir(join(dir, ".claude"));
    await Deno.writeTextFile(join(dir, ".claude/settings.json"), JSON.stringify(OTHER_SETTINGS));

    const first = await policy(["init", "--yes", "--server-url", "http://127.0.0.1:9"], {
      cwd: dir,
    });
    assert.equal(first.code, 0, first.stderr);
    const once = await snapshot(dir, INSTALLED);
    const second = await policy(["init", "--yes"], { cwd: dir });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(await snapshot(dir, INSTALLED), once, "byte-identical after the second run");
    assert.doesNotMatch(second.stdout, /^wrote/m);

    assert.match(once[".policy.toml"]!, /server_url = "http:\/\/127\.0\.0\.1:9"/);
    assert.match(once[".policy.toml"]!, /project = "demo"/);
    assert.match(once[".git/hooks/pre-commit"]!, /policyd-precommit-shim/);
    assert.equal(
      await Deno.readTextFile(join(dir, ".git/hooks/pre-commit.policy-chained")),
      FOREIGN_HOOK,
    );
    const settings = JSON.parse(once[".claude/settings.json"]!);
    assert.deepEqual(settings.permissions, OTHER_SETTINGS.permissions);
    assert.equal(settings.hooks.PreToolUse.length, 2);
    assert.deepEqual(settings.hooks.PreToolUse[0], OTHER_SETTINGS.hooks.PreToolUse[0]);
    assert.equal(settings.hooks.PreToolUse[1].matcher, "Edit|Write|MultiEdit");
    assert.match(settings.hooks.PreToolUse[1].hooks[0].command, /policy\.ts'? hook$/);
    assert.equal(settings.hooks.SessionStart.length, 1);
    assert.ok(once["CLAUDE.md"]!.startsWith("# Notes\n"));
    assert.equal(once["CLAUDE.md"]!.match(/policyd:begin/g)?.length, 1);

    const status = JSON.parse((await policy(["status", "--json"], { cwd: dir })).stdout);
    assert.equal(status.sections[1].flag, "ok");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the installed pre-commit hook blocks a staged banned dependency and ignores unstaged edits", async (t) => {
  const server = await startTestServer();
  const dir = await tempGitRepo({ "pyproject.toml": GOOD });
  try {
    await Deno.writeTextFile(join(dir, ".git/hooks/pre-commit"), FOREIGN_HOOK, { mode: 0o755 });
    await writePolicyToml(dir, server.url);
    const init = await policy(["init", "--yes", "--no-claude-hooks", "--no-claude-md"], {
      cwd: dir,
    });
    assert.equal(init.code, 0, init.stderr);
    await gitIn(dir, ["add", ".policy.toml"]);
    await gitIn(dir, ["commit", "-q", "-m", "policy config"]);

    await t.step(
      "a staged banned dependency fails the commit with the structured line",
      async () => {
        await Deno.writeTextFile(join(dir, "pyproject.toml"), BANNED);
        await gitIn(dir, ["add", "pyproject.toml"]);
        const commit = await gitIn(dir, ["commit", "-m", "add pycrypto"], true);
        assert.notEqual(commit.code, 0);
        const line = commit.stderr.split("\n").find((l) =>
          l.startsWith("POLICY_PRECOMMIT_DENIED ")
        );
        assert.ok(line, commit.stderr);
        const payload = JSON.parse(line.slice("POLICY_PRECOMMIT_DENIED ".length));
        assert.equal(payload.checked, 2);
        assert.equal(payload.denied.length, 1);
        assert.deepEqual(Object.keys(payload.denied[0]), [
          "package",
          "version",
          "verdict",
          "reason",
          "denial_category",
          "replacement",
          "cves",
        ]);
        assert.equal(payload.denied[0].package, "pycrypto");
        assert.equal(payload.denied[0].replacement, "cryptography");
        assert.match(commit.stderr, /commit blocked/);
        const log = await gitIn(dir, ["log", "--oneline"]);
        assert.equal(log.stdout.trim().split("\n").length, 2, "no new commit");
        assert.ok(await Deno.stat(join(dir, ".foreign-hook-ran")), "the chained foreign hook ran");
      },
    );

    await t.step("unstaged edits are ignored: the staged content is what counts", async () => {
      await Deno.writeTextFile(join(dir, "pyproject.toml"), GOOD);
      await gitIn(dir, ["add", "pyproject.toml"]);
      await Deno.writeTextFile(join(dir, "pyproject.toml"), BANNED); // not staged
      await Deno.writeTextFile(join(dir, "notes.txt"), "x\n");
      await gitIn(dir, ["add", "notes.txt"]);
      const commit = await gitIn(dir, ["commit", "-m", "notes"], true);
      assert.equal(commit.code, 0, commit.stderr);
    });

    await t.step("uninstall leaves a working repository with the foreign hook back", async () => {
      const ran = await policy(["uninstall"], { cwd: dir });
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(await Deno.readTextFile(join(dir, ".git/hooks/pre-commit")), FOREIGN_HOOK);
      assert.ok(await Deno.stat(join(dir, ".policy.toml")), ".policy.toml is kept");
      await gitIn(dir, ["add", "pyproject.toml"]);
      const commit = await gitIn(dir, ["commit", "-m", "banned but unchecked"], true);
      assert.equal(commit.code, 0, commit.stderr);
      const fsck = await gitIn(dir, ["status", "--porcelain"]);
      assert.equal(fsck.code, 0);
    });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("precommit with the server down passes with a warning (fail-open) or blocks (fail-closed)", async () => {
  const dir = await tempGitRepo({ "pyproject.toml": GOOD });
  try {
    const url = deadServerUrl();
    await writePolicyToml(dir, url);
    const open = await policy(["precommit"], { cwd: dir });
    assert.equal(open.code, 0);
    assert.match(open.stderr, /warning/);
    await writePolicyToml(dir, url, "fail_open = false\n");
    const closed = await policy(["precommit"], { cwd: dir });
    assert.equal(closed.code, 1);
    assert.equal(closed.stderr.trimEnd().split("\n").length, 1);
    assert.match(closed.stderr, /unreachable/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("uninstall removes our Claude hooks and CLAUDE.md section but keeps the user's", async () => {
  const dir = await tempGitRepo({ "CLAUDE.md": "# Notes\n" });
  try {
    await Deno.mkdir(join(dir, ".claude"));
    await Deno.writeTextFile(join(dir, ".claude/settings.json"), JSON.stringify(OTHER_SETTINGS));
    assert.equal((await policy(["init", "--yes", "--no-precommit"], { cwd: dir })).code, 0);
    const ran = await policy(["uninstall"], { cwd: dir });
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(
      JSON.parse(await Deno.readTextFile(join(dir, ".claude/settings.json"))),
      OTHER_SETTINGS,
    );
    assert.equal(await Deno.readTextFile(join(dir, "CLAUDE.md")), "# Notes\n");
    const again = await exec("git", ["status", "--porcelain"], { cwd: dir });
    assert.equal(again.code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
