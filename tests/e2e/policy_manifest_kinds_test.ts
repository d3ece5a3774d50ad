/**
 * End-to-end: every manifest kind the readers know (issue 27 point 4) is
 * gated by the agent hook (a Claude Code Write payload) and by the installed
 * git pre-commit hook (a real commit), against a real policyd on loopback.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { claudePreToolUse } from "../helpers/claude_payload.ts";
import { startTestServer } from "../helpers/server.ts";
import { gitIn, policy, tempGitRepo, writePolicyToml } from "../../cli/policy/_testing.ts";

/** A manifest of each kind that adds the banned pycrypto. */
const BANNED: Record<string, string> = {
  "setup.py":
    `from setuptools import setup\nsetup(name="x", install_requires=["requests", "pycrypto==2.6.1"])\n`,
  "setup.cfg": `[options]\ninstall_requires =\n    requests\n    pycrypto\n`,
  "Pipfile": `[packages]\nrequests = "*"\npycrypto = "==2.6.1"\n`,
  "tox.ini": `[testenv]\ndeps =\n    pytest\n    pycrypto\n`,
  "environment.yml": `dependencies:\n  - pip\n  - pip:\n      - pycrypto==2.6.1\n`,
  "tool.py": `# /// script\n# dependencies = ["pycrypto==2.6.1"]\n# ///\nprint(1)\n`,
  "pyproject.toml":
    `[build-system]\nrequires = ["setuptools", "pycrypto"]\n[project]\nname = "demo"\n`,
  "requirements.txt": `flask==3.0.0\nthis line is odd!!\nbar == 4.5\\\n.6\npycrypto==2.6.1\n`,
};

function write(dir: string, file: string, content: string) {
  return claudePreToolUse(dir, "Write", { file_path: join(dir, file), content });
}

Deno.test("the hook and the pre-commit hook deny pycrypto added to every manifest kind", async (t) => {
  const server = await startTestServer();
  const dir = await tempGitRepo({ "README.md": "demo\n" });
  try {
    await writePolicyToml(dir, server.url, "auto_request_approval = false\n");
    for (const [file, content] of Object.entries(BANNED)) {
      await t.step(`hook: Write ${file}`, async () => {
        const ran = await policy(["hook"], {
          cwd: dir,
          stdin: write(dir, file, content),
          env: { CLAUDE_PROJECT_DIR: dir },
        });
        assert.equal(ran.code, 0, ran.stderr);
        const out = JSON.parse(ran.stdout);
        assert.equal(out.hookSpecificOutput.permissionDecision, "deny", ran.stdout);
        assert.match(out.hookSpecificOutput.permissionDecisionReason, /pycrypto.* is DENIED/);
      });
    }
    await t.step(
      "hook: an unreadable line warns (fail-open) or denies (fail-closed), naming it",
      async () => {
        const stdin = write(dir, "requirements-odd.txt", "flask==3.0.0\nthis is odd!!\n");
        const open = await policy(["hook"], { cwd: dir, stdin, env: { CLAUDE_PROJECT_DIR: dir } });
        assert.match(open.stdout, /requirements-odd\.txt line 2: not a requirement: this is odd!!/);
        assert.notEqual(JSON.parse(open.stdout).hookSpecificOutput.permissionDecision, "deny");
        await writePolicyToml(
          dir,
          server.url,
          "auto_request_approval = false\nfail_open = false\n",
        );
        const closed = await policy(["hook"], {
          cwd: dir,
          stdin,
          env: { CLAUDE_PROJECT_DIR: dir },
        });
        const out = JSON.parse(closed.stdout).hookSpecificOutput;
        assert.equal(out.permissionDecision, "deny", closed.stdout);
        assert.match(out.permissionDecisionReason, /requirements-odd\.txt line 2/);
        await writePolicyToml(dir, server.url, "auto_request_approval = false\n");
      },
    );
    for (
      const command of [
        "printf '[options]\\ninstall_requires =\\n    pycrypto\\n' > setup.cfg",
        "cat > environment.yml <<'EOF'\ndependencies:\n  - pip:\n      - pycrypto==2.6.1\nEOF",
        "printf '# /// script\\n# dependencies = [\"pycrypto\"]\\n# ///\\n' > tool.py",
      ]
    ) {
      await t.step(`hook: shell write ${command.split("\n")[0]}`, async () => {
        const ran = await policy(["hook"], {
          cwd: dir,
          stdin: claudePreToolUse(dir, "Bash", { command }),
          env: { CLAUDE_PROJECT_DIR: dir },
        });
        const out = ran.stdout.trim() ? JSON.parse(ran.stdout) : null;
        assert.equal(out?.hookSpecificOutput?.permissionDecision, "deny", ran.stdout + ran.stderr);
        assert.match(out.hookSpecificOutput.permissionDecisionReason, /pycrypto.* is DENIED/);
      });
    }
    await t.step("hook: a .py file without a script block is not a manifest", async () => {
      const ran = await policy(["hook"], {
        cwd: dir,
        stdin: write(dir, "plain.py", "import pycrypto\n"),
        env: { CLAUDE_PROJECT_DIR: dir },
      });
      assert.equal(ran.stdout.trim(), "", ran.stderr);
    });

    const init = await policy(["init", "--yes", "--no-claude-hooks", "--no-claude-md"], {
      cwd: dir,
    });
    assert.equal(init.code, 0, init.stderr);
    await gitIn(dir, ["add", ".policy.toml"]);
    await gitIn(dir, ["commit", "-q", "-m", "policy config"]);
    for (const [file, content] of Object.entries(BANNED)) {
      await t.step(`git commit of ${file} fails`, async () => {
        await Deno.writeTextFile(join(dir, file), content);
        await gitIn(dir, ["add", file]);
        const commit = await gitIn(dir, ["commit", "-m", `add ${file}`], true);
        assert.notEqual(commit.code, 0, commit.stderr);
        assert.match(commit.stderr, /POLICY_PRECOMMIT_DENIED .*"package":"pycrypto"/);
        await gitIn(dir, ["rm", "-q", "--cached", file]);
        await Deno.remove(join(dir, file));
      });
    }
    await t.step("a commit of a plain .py file passes", async () => {
      await Deno.writeTextFile(join(dir, "plain.py"), "print('hi')\n");
      await gitIn(dir, ["add", "plain.py"]);
      const commit = await gitIn(dir, ["commit", "-m", "plain"], true);
      assert.equal(commit.code, 0, commit.stderr);
    });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
