/**
 * End-to-end: `policy init` / `uninstall` in real git repositories, and the
 * installed pre-commit shim blocking a real `git commit` against a real policyd.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { parse as parseYaml } from "yaml";
import { parse as parseToml } from "smol-toml";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  deadServerUrl,
  exec,
  gitIn,
  policy,
  policyOnPathDir,
  REPO_ROOT,
  shell,
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
    assert.equal(
      settings.hooks.PreToolUse[1].matcher,
      "Edit|Write|MultiEdit|NotebookEdit|Bash|PowerShell",
    );
    assert.equal(settings.hooks.PreToolUse[1].hooks[0].command, "policy hook", "portable");
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
        assert.equal(payload.checked, 1, "only the dependency the change adds");
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

    await t.step(
      "the shim's git output piped in is what precommit reads (no git of its own)",
      async () => {
        // The pipeline the installed shim runs, up to the pipe; then precommit in a folder that
        // is not a repository: only the piped diff can name pycrypto there.
        const hook = await Deno.readTextFile(join(dir, ".git/hooks/pre-commit"));
        const pipeline = hook.split("\n").find((l) => l.startsWith("{ git diff "));
        assert.ok(pipeline, hook);
        const piped = await shell(pipeline.slice(0, pipeline.lastIndexOf(" | ")), { cwd: dir });
        const bare = await Deno.makeTempDir({ prefix: "policy-no-git-" });
        try {
          await Deno.copyFile(join(dir, ".policy.toml"), join(bare, ".policy.toml"));
          const ran = await policy(["precommit", "--staged-diff-stdin"], {
            cwd: bare,
            stdin: piped.stdout,
          });
          assert.equal(ran.code, 1, ran.stderr);
          assert.match(ran.stderr, /POLICY_PRECOMMIT_DENIED .*"package":"pycrypto"/);
          // A pipe that cannot be read (git failed) falls back to git, which fails here: blocked,
          // never passed.
          const failed = await policy(["precommit", "--staged-diff-stdin"], {
            cwd: bare,
            stdin: "policy-git-exit 128\n",
          });
          assert.equal(failed.code, 1, failed.stderr);
          assert.doesNotMatch(failed.stderr, /pycrypto/);
        } finally {
          await Deno.remove(bare, { recursive: true });
        }
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
    const open = await policy(["precommit", "--all"], { cwd: dir });
    assert.equal(open.code, 0);
    assert.match(open.stderr, /warning/);
    await writePolicyToml(dir, url, "fail_open = false\n");
    const closed = await policy(["precommit", "--all"], { cwd: dir });
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

Deno.test(".pre-commit-hooks.yaml declares the policy hook for manifests and lock files", async () => {
  const hooks = parseYaml(await Deno.readTextFile(join(REPO_ROOT, ".pre-commit-hooks.yaml")));
  assert.ok(Array.isArray(hooks) && hooks.length === 1);
  const [hook] = hooks as Array<Record<string, unknown>>;
  assert.equal(hook.id, "policy");
  assert.equal(hook.language, "unsupported");
  assert.equal(hook.entry, "policy precommit");
  assert.equal(hook.pass_filenames, false);
  assert.equal(hook.require_serial, true);
  const files = new RegExp(hook.files as string); // pre-commit uses Python's re.search
  for (
    const path of [
      "pyproject.toml",
      "services/api/pyproject.toml",
      "requirements.txt",
      "requirements-dev.txt",
      "dev-requirements.in",
      "requirements/base.txt",
      "constraints.txt",
      "uv.lock",
      "poetry.lock",
      "pylock.toml",
      "services/api/setup.cfg",
      "setup.py",
      "environment.yml",
      "environment.yaml",
      "Pipfile",
      "tox.ini",
      "pdm.lock",
    ]
  ) assert.ok(files.test(path), path);
  for (const path of ["README.md", "src/app.py", "pyproject.toml.bak", "package-lock.json"]) {
    assert.ok(!files.test(path), path);
  }
});

Deno.test("precommit fails only on what the staged change adds: an allowed addition passes beside a committed denied one", async (t) => {
  const server = await startTestServer();
  const dir = await tempGitRepo({ "pyproject.toml": BANNED, "requirements-dev.txt": "pytest\n" });
  try {
    await writePolicyToml(dir, server.url, "auto_request_approval = false\n");
    const init = await policy(["init", "--yes", "--no-claude-hooks", "--no-claude-md"], {
      cwd: dir,
    });
    assert.equal(init.code, 0, init.stderr);

    await t.step(
      "adding an allowed dependency commits although pycrypto is committed",
      async () => {
        await Deno.writeTextFile(
          join(dir, "pyproject.toml"),
          BANNED.replace(`"pycrypto==2.6.1"`, `"pycrypto==2.6.1", "cryptography>=42"`),
        );
        await gitIn(dir, ["add", "pyproject.toml", ".policy.toml"]);
        const commit = await gitIn(dir, ["commit", "-m", "add cryptography"], true);
        assert.equal(commit.code, 0, commit.stderr);
      },
    );

    await t.step("--all still reports the committed denied dependency", async () => {
      const all = await policy(["precommit", "--all"], { cwd: dir });
      assert.equal(all.code, 1);
      assert.match(all.stderr, /pycrypto==2\.6\.1 is DENIED/);
    });

    await t.step("adding a denied package to requirements-dev.txt fails the commit", async () => {
      await Deno.writeTextFile(join(dir, "requirements-dev.txt"), "pytest\npycrypto\n");
      await gitIn(dir, ["add", "requirements-dev.txt"]);
      const commit = await gitIn(dir, ["commit", "-m", "dev deps"], true);
      assert.notEqual(commit.code, 0);
      assert.match(commit.stderr, /POLICY_PRECOMMIT_DENIED .*"package":"pycrypto"/);
      assert.match(commit.stderr, /requirements-dev\.txt/);
    });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

const ALL_FILES = [
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".mcp.json",
  ".cursor/hooks.json",
  ".cursor/mcp.json",
  ".gemini/settings.json",
  ".github/hooks/policyd.json",
  ".vscode/mcp.json",
  ".codex/hooks.json",
  ".codex/config.toml",
];

Deno.test("init --agents all writes every agent's hooks and MCP server, idempotently; uninstall keeps only the user's", async () => {
  const bin = await policyOnPathDir();
  const dir = await tempGitRepo({ "pyproject.toml": GOOD });
  const env = { PATH: `${bin}:${Deno.env.get("PATH")}` };
  const theirs = {
    ".cursor/hooks.json": { version: 1, hooks: { afterFileEdit: [{ command: "./format.sh" }] } },
    ".gemini/settings.json": { theme: "Dracula", mcpServers: { docs: { command: "docs-mcp" } } },
    ".mcp.json": { mcpServers: { github: { command: "gh-mcp", args: [] } } },
  };
  try {
    for (const [file, value] of Object.entries(theirs)) {
      await Deno.mkdir(join(dir, file, ".."), { recursive: true });
      await Deno.writeTextFile(join(dir, file), JSON.stringify(value));
    }
    await Deno.mkdir(join(dir, ".codex"));
    await Deno.writeTextFile(join(dir, ".codex/config.toml"), `model = "gpt-5-codex"\n`);
    const first = await shell("policy init --yes --agents all", { cwd: dir, env });
    assert.equal(first.code, 0, first.stderr);
    const once = await snapshot(dir, ALL_FILES);
    const second = await shell("policy init --yes --agents all", { cwd: dir, env });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(await snapshot(dir, ALL_FILES), once, "byte-identical after the second run");
    assert.doesNotMatch(second.stdout, /^wrote/m);

    assert.equal(once[".claude/settings.local.json"], null, "policy is on PATH: nothing local");
    const json = (file: string) => JSON.parse(once[file]!);
    assert.deepEqual(json(".cursor/hooks.json").hooks.beforeShellExecution, [
      { command: "policy hook --agent cursor" },
    ]);
    assert.deepEqual(
      json(".cursor/hooks.json").hooks.preToolUse,
      ["Write", "StrReplace", "Delete", "ApplyPatch", "EditNotebook"].map((matcher) => ({
        command: "policy hook --agent cursor",
        matcher,
      })),
    );
    assert.deepEqual(json(".cursor/hooks.json").hooks.afterFileEdit, [{ command: "./format.sh" }]);
    assert.equal(json(".gemini/settings.json").theme, "Dracula");
    assert.deepEqual(
      json(".gemini/settings.json").hooks.BeforeTool[0].matcher,
      "run_shell_command|write_file|replace",
    );
    assert.deepEqual(json(".github/hooks/policyd.json").hooks.preToolUse[0], {
      type: "command",
      bash: "policy hook --agent copilot",
      powershell: "policy hook --agent copilot",
      timeoutSec: 30,
    });
    assert.equal(json(".codex/hooks.json").hooks.PreToolUse[0].matcher, "Bash|apply_patch");
    const mcp = { command: "policy", args: ["mcp"] };
    assert.deepEqual(json(".mcp.json").mcpServers, {
      github: theirs[".mcp.json"].mcpServers.github,
      policyd: mcp,
    });
    assert.deepEqual(json(".cursor/mcp.json").mcpServers.policyd, mcp);
    assert.deepEqual(json(".gemini/settings.json").mcpServers.policyd, mcp);
    assert.deepEqual(json(".vscode/mcp.json").servers.policyd, { type: "stdio", ...mcp });
    assert.match(
      once[".codex/config.toml"]!,
      /^model = "gpt-5-codex"\n[^]*\[mcp_servers\.policyd\]\ncommand = "policy"\nargs = \["mcp"\]/,
    );

    const removed = await policy(["uninstall"], { cwd: dir });
    assert.equal(removed.code, 0, removed.stderr);
    const after = await snapshot(dir, ALL_FILES);
    for (const [file, value] of Object.entries(theirs)) {
      assert.deepEqual(JSON.parse(after[file]!), value, file);
    }
    assert.equal(after[".codex/config.toml"], `model = "gpt-5-codex"\n`);
    for (
      const file of [
        ".claude/settings.json",
        ".cursor/mcp.json",
        ".github/hooks/policyd.json",
        ".vscode/mcp.json",
        ".codex/hooks.json",
      ]
    ) {
      assert.equal(after[file], null, file);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(bin, { recursive: true });
  }
});

Deno.test("portable hooks: without policy on PATH only .claude/settings.local.json holds this machine's command; a second init migrates", async () => {
  const dir = await tempGitRepo({ "pyproject.toml": GOOD });
  const old = {
    hooks: {
      PreToolUse: [{
        matcher: "Edit|Write|MultiEdit",
        hooks: [{
          type: "command",
          command: "/usr/bin/deno run -A '/old/checkout/cli/policy.ts' hook",
          timeout: 30,
        }],
      }],
    },
  };
  try {
    await Deno.mkdir(join(dir, ".claude"));
    await Deno.writeTextFile(join(dir, ".claude/settings.json"), JSON.stringify(old));
    const bare = await policy(["init", "--yes", "--no-precommit"], {
      cwd: dir,
      env: { PATH: "/usr/bin:/bin" },
    });
    assert.equal(bare.code, 0, bare.stderr);
    assert.match(bare.stdout, /`policy` is not on PATH.*deno task install/);
    const committed = await Deno.readTextFile(join(dir, ".claude/settings.json"));
    assert.doesNotMatch(committed, /\/old\/checkout|policy\.ts/, "old absolute entry replaced");
    const settings = JSON.parse(committed);
    assert.deepEqual(settings.hooks.PreToolUse, [{
      matcher: "Edit|Write|MultiEdit|NotebookEdit|Bash|PowerShell",
      hooks: [{ type: "command", command: "policy hook", timeout: 30 }],
    }]);
    const local = JSON.parse(await Deno.readTextFile(join(dir, ".claude/settings.local.json")));
    assert.match(
      local.hooks.PreToolUse[0].hooks[0].command,
      /(cli\/policy\.ts|policy\.js)'? hook$/,
    );
    const status = await gitIn(dir, ["status", "--porcelain", "--untracked-files=all"]);
    assert.doesNotMatch(status.stdout, /settings\.local\.json/, "the local file is git-ignored");
    assert.match(status.stdout, /\.claude\/settings\.json/);

    const bin = await policyOnPathDir();
    try {
      const again = await shell("policy init --yes --no-precommit", {
        cwd: dir,
        env: { PATH: `${bin}:/usr/bin:/bin` },
      });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /removed {3}machine-specific Claude Code hooks/);
      await assert.rejects(Deno.stat(join(dir, ".claude/settings.local.json")));
      assert.equal(await Deno.readTextFile(join(dir, ".claude/settings.json")), committed);
    } finally {
      await Deno.remove(bin, { recursive: true });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the MCP servers init registers start from PATH and answer check_package for pycrypto", async () => {
  const server = await startTestServer();
  const bin = await policyOnPathDir();
  const dir = await tempGitRepo({ "pyproject.toml": GOOD });
  const PATH = `${bin}:${Deno.env.get("PATH")}`;
  try {
    await writePolicyToml(dir, server.url);
    const init = await shell("policy init --yes --agents all --no-precommit", {
      cwd: dir,
      env: { PATH },
    });
    assert.equal(init.code, 0, init.stderr);
    const entries: Array<[string, { command: string; args: string[] }]> = [
      [".mcp.json", JSON.parse(await Deno.readTextFile(join(dir, ".mcp.json"))).mcpServers.policyd],
      [
        ".cursor/mcp.json",
        JSON.parse(await Deno.readTextFile(join(dir, ".cursor/mcp.json"))).mcpServers.policyd,
      ],
      [
        ".gemini/settings.json",
        JSON.parse(await Deno.readTextFile(join(dir, ".gemini/settings.json"))).mcpServers.policyd,
      ],
      [
        ".vscode/mcp.json",
        JSON.parse(await Deno.readTextFile(join(dir, ".vscode/mcp.json"))).servers.policyd,
      ],
      [
        ".codex/config.toml",
        // deno-lint-ignore no-explicit-any
        (parseToml(await Deno.readTextFile(join(dir, ".codex/config.toml"))) as any)
          .mcp_servers.policyd,
      ],
    ];
    for (const [file, entry] of entries) {
      assert.deepEqual({ command: entry.command, args: entry.args }, {
        command: "policy",
        args: ["mcp"],
      }, file);
    }
    // Every entry is the same command; run it once the way an agent does.
    const client = new Client({ name: "policy-install-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: entries[0][1].command,
        args: entries[0][1].args,
        cwd: dir,
        env: { PATH, HOME: Deno.env.get("HOME") ?? dir },
        stderr: "pipe",
      }),
    );
    try {
      const result = await client.callTool({
        name: "check_package",
        arguments: { package: "pycrypto" },
      });
      const out = result.structuredContent as Record<string, unknown>;
      assert.equal(out.verdict, "DENIED");
      assert.equal(out.replacement, "cryptography");
    } finally {
      await client.close();
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(bin, { recursive: true });
  }
});
