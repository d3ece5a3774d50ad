/**
 * End-to-end: `policy hook` fed real Claude Code payloads (shapes from the
 * hooks reference) against a real policyd, as a subprocess.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import {
  deadServerUrl,
  gitIn,
  policy,
  policyOnPathDir,
  shell,
  tempGitRepo,
  writePolicyToml,
} from "../../cli/policy/_testing.ts";

const PYPROJECT = `[project]
name = "demo"
dependencies = [
    "requests>=2.31",
]
`;

function common(dir: string, event: string) {
  return {
    session_id: "abc123",
    transcript_path: join(dir, ".claude", "transcript.jsonl"),
    cwd: dir,
    permission_mode: "default",
    hook_event_name: event,
  };
}

function preToolUse(dir: string, tool: string, toolInput: Record<string, unknown>) {
  return JSON.stringify({
    ...common(dir, "PreToolUse"),
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: "toolu_01ABC",
  });
}

async function hook(dir: string, stdin: string, env: Record<string, string> = {}) {
  const ran = await policy(["hook"], { cwd: dir, stdin, env: { CLAUDE_PROJECT_DIR: dir, ...env } });
  assert.equal(ran.code, 0, ran.stderr);
  return { ...ran, json: ran.stdout.trim() ? JSON.parse(ran.stdout) : null };
}

Deno.test("policy hook answers Claude Code PreToolUse payloads with the documented JSON", async (t) => {
  const server = await startTestServer();
  const dir = await tempGitRepo({ "pyproject.toml": PYPROJECT });
  const file = join(dir, "pyproject.toml");
  try {
    await writePolicyToml(dir, server.url, "auto_request_approval = false\n");

    await t.step("Edit adding a banned package → deny with reason and replacement", async () => {
      const out = await hook(
        dir,
        preToolUse(dir, "Edit", {
          file_path: file,
          old_string: `    "requests>=2.31",\n`,
          new_string: `    "requests>=2.31",\n    "pycrypto==2.6.1",\n`,
          replace_all: false,
        }),
      );
      assert.equal(out.json.hookSpecificOutput.hookEventName, "PreToolUse");
      assert.equal(out.json.hookSpecificOutput.permissionDecision, "deny");
      assert.match(
        out.json.hookSpecificOutput.permissionDecisionReason,
        /pycrypto==2\.6\.1 is DENIED/,
      );
      assert.match(out.json.hookSpecificOutput.permissionDecisionReason, /cryptography/);
    });

    await t.step(
      "Write adding an unknown package → additionalContext, no permissionDecision",
      async () => {
        const out = await hook(
          dir,
          preToolUse(dir, "Write", {
            file_path: file,
            content: PYPROJECT.replace(
              `"requests>=2.31",`,
              `"requests>=2.31",\n    "left-pad>=1.0",`,
            ),
          }),
        );
        assert.deepEqual(Object.keys(out.json.hookSpecificOutput).sort(), [
          "additionalContext",
          "hookEventName",
        ]);
        assert.match(
          out.json.hookSpecificOutput.additionalContext,
          /left-pad==1\.0 is PROVISIONALLY_ALLOWED/,
        );
      },
    );

    await t.step("MultiEdit with a version-constrained violation → deny", async () => {
      const out = await hook(
        dir,
        preToolUse(dir, "MultiEdit", {
          file_path: file,
          edits: [
            {
              old_string: `"requests>=2.31",`,
              new_string: `"requests>=2.31",\n    "PyYAML>=5.1",`,
            },
            { old_string: `name = "demo"`, new_string: `name = "demo"\nversion = "0.2"` },
          ],
        }),
      );
      assert.equal(out.json.hookSpecificOutput.permissionDecision, "deny");
      assert.match(
        out.json.hookSpecificOutput.permissionDecisionReason,
        /DENIAL_VERSION_CONSTRAINT/,
      );
    });

    await t.step("ALLOWED changes, other files and other tools → no output", async () => {
      const cases = [
        preToolUse(dir, "Edit", { file_path: file, old_string: "2.31", new_string: "2.32" }),
        preToolUse(dir, "Write", { file_path: join(dir, "README.md"), content: "pycrypto" }),
        preToolUse(dir, "Bash", { command: "echo 'pip install pycrypto'", description: "print" }),
      ];
      for (const stdin of cases) {
        const out = await hook(dir, stdin);
        assert.equal(out.stdout, "");
      }
    });

    await t.step("malformed stdin → exit 0, no output, one diagnostic line on stderr", async () => {
      for (const stdin of ["", "not json", "[1,2]", `{"tool_name": "Write"}`]) {
        const out = await hook(dir, stdin);
        assert.equal(out.stdout, "");
        assert.ok(out.stderr.trimEnd().split("\n").length <= 1, out.stderr);
      }
    });

    await t.step("the answer is never allow", async () => {
      const out = await hook(
        dir,
        preToolUse(dir, "Edit", { file_path: file, old_string: "2.31", new_string: "2.30" }),
      );
      assert.ok(!out.stdout.includes(`"allow"`));
    });

    await t.step("SessionStart lists denied and provisional dependencies", async () => {
      await Deno.writeTextFile(
        file,
        PYPROJECT.replace(`"requests>=2.31",`, `"requests>=2.31", "pycrypto", "left-pad"`),
      );
      const out = await hook(
        dir,
        JSON.stringify({
          ...common(dir, "SessionStart"),
          source: "startup",
          model: "claude-sonnet-4",
        }),
      );
      assert.equal(out.json.hookSpecificOutput.hookEventName, "SessionStart");
      assert.match(out.json.hookSpecificOutput.additionalContext, /pycrypto is DENIED/);
      assert.match(
        out.json.hookSpecificOutput.additionalContext,
        /left-pad is PROVISIONALLY_ALLOWED/,
      );
      assert.match(out.json.hookSpecificOutput.additionalContext, /request-approval/);
      await Deno.writeTextFile(file, PYPROJECT);
      const quiet = await hook(
        dir,
        JSON.stringify({ ...common(dir, "SessionStart"), source: "resume" }),
      );
      assert.equal(quiet.stdout, "");
    });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("policy hook with the server down: silent under fail-open, deny naming the URL under fail-closed", async () => {
  const dir = await tempGitRepo({ "pyproject.toml": PYPROJECT });
  const url = deadServerUrl();
  const stdin = preToolUse(dir, "Edit", {
    file_path: join(dir, "pyproject.toml"),
    old_string: "2.31",
    new_string: "2.32",
  });
  try {
    await writePolicyToml(dir, url);
    assert.equal((await hook(dir, stdin)).stdout, "");
    await writePolicyToml(dir, url, "fail_open = false\n");
    const out = await hook(dir, stdin);
    assert.equal(out.json.hookSpecificOutput.permissionDecision, "deny");
    assert.ok(out.json.hookSpecificOutput.permissionDecisionReason.includes(url));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A fixture payload of `agent` (tests/fixtures/agents) with `__CWD__` filled in. */
async function payload(agent: string, name: string, dir: string): Promise<string> {
  const text = await Deno.readTextFile(
    new URL(`../fixtures/agents/${agent}.json`, import.meta.url),
  );
  const all = JSON.parse(text.replaceAll("__CWD__", dir));
  assert.ok(all[name], `fixture ${agent}.${name}`);
  return JSON.stringify(all[name]);
}

/** How each agent registered by `policy init --agents all` runs our hook. */
interface AgentRun {
  agent: string;
  /** The command line init registered, read back from the agent's own file. */
  command(dir: string): Promise<string>;
  /** Environment the agent sets for hooks. */
  env(dir: string): Record<string, string>;
  /** The deny reason in the agent's answer, or null when the answer is not a deny. */
  denyReason(out: Record<string, unknown> | null): string | null;
  /** Payload fixtures that must be denied. */
  denied: string[];
}

async function readJson(path: string) {
  return JSON.parse(await Deno.readTextFile(path));
}

// deno-lint-ignore no-explicit-any
type AnyJson = any;

const CLAUDE_DENY = (out: AnyJson) =>
  out?.hookSpecificOutput?.permissionDecision === "deny"
    ? out.hookSpecificOutput.permissionDecisionReason
    : null;

const AGENT_RUNS: AgentRun[] = [
  {
    agent: "claude",
    command: async (dir) =>
      (await readJson(join(dir, ".claude/settings.json"))).hooks.PreToolUse[0].hooks[0].command,
    env: (dir) => ({ CLAUDE_PROJECT_DIR: dir }),
    denyReason: CLAUDE_DENY,
    denied: ["shell", "edit", "notebook"],
  },
  {
    agent: "vscode",
    command: async (dir) =>
      (await readJson(join(dir, ".claude/settings.json"))).hooks.PreToolUse[0].hooks[0].command,
    env: () => ({}),
    denyReason: CLAUDE_DENY,
    denied: ["shell", "edit", "insert", "task"],
  },
  {
    agent: "cursor",
    command: async (dir) =>
      (await readJson(join(dir, ".cursor/hooks.json"))).hooks.beforeShellExecution[0].command,
    env: (dir) => ({ CURSOR_PROJECT_DIR: dir }),
    denyReason: (out: AnyJson) => out?.permission === "deny" ? out.agent_message : null,
    denied: ["shell", "write", "edit", "apply_patch"],
  },
  {
    agent: "gemini",
    command: async (dir) =>
      (await readJson(join(dir, ".gemini/settings.json"))).hooks.BeforeTool[0].hooks[0].command,
    env: (dir) => ({ GEMINI_PROJECT_DIR: dir, CLAUDE_PROJECT_DIR: dir }),
    denyReason: (out: AnyJson) => out?.decision === "deny" ? out.reason : null,
    denied: ["shell", "edit", "write"],
  },
  {
    agent: "copilot",
    command: async (dir) =>
      (await readJson(join(dir, ".github/hooks/policyd.json"))).hooks.preToolUse[0].bash,
    env: () => ({}),
    denyReason: (out: AnyJson) =>
      out?.permissionDecision === "deny" ? out.permissionDecisionReason : null,
    denied: ["shell", "edit", "write", "apply_patch", "insert"],
  },
  {
    agent: "codex",
    command: async (dir) =>
      (await readJson(join(dir, ".codex/hooks.json"))).hooks.PreToolUse[0].hooks[0].command,
    env: () => ({}),
    denyReason: CLAUDE_DENY,
    denied: ["shell", "edit"],
  },
];

/** Runs the registered hook command like the agent does: `sh -c`, payload on stdin, exit 0. */
async function runAgentHook(run: AgentRun, dir: string, path: string, stdin: string) {
  const ran = await shell(await run.command(dir), {
    cwd: dir,
    stdin,
    env: { PATH: path, ...run.env(dir) },
  });
  assert.equal(ran.code, 0, `${run.agent}: ${ran.stderr}`);
  return { ...ran, json: ran.stdout.trim() ? JSON.parse(ran.stdout) : null };
}

function withCommand(stdin: string, command: string): string {
  const p = JSON.parse(stdin);
  if (typeof p.command === "string") p.command = command; // Cursor
  if (p.tool_input?.command !== undefined) p.tool_input.command = command;
  if (typeof p.toolArgs === "string") p.toolArgs = JSON.stringify({ command });
  return JSON.stringify(p);
}

Deno.test("every agent's registered hook denies pip install pycrypto and manifest edits, in its own format", async (t) => {
  const server = await startTestServer();
  const bin = await policyOnPathDir();
  const dir = await tempGitRepo({ "pyproject.toml": PYPROJECT });
  const path = `${bin}:${Deno.env.get("PATH")}`;
  try {
    await writePolicyToml(dir, server.url, "auto_request_approval = false\n");
    const init = await shell("policy init --yes --agents all --no-precommit", {
      cwd: dir,
      env: { PATH: path },
    });
    assert.equal(init.code, 0, init.stderr);
    assert.doesNotMatch(init.stdout, /not on PATH/);

    for (const run of AGENT_RUNS) {
      await t.step(`${run.agent}: ${run.denied.join(", ")} denied`, async () => {
        assert.match(await run.command(dir), /^policy hook( --agent [a-z]+)?$/, "portable command");
        for (const name of run.denied) {
          const out = await runAgentHook(run, dir, path, await payload(run.agent, name, dir));
          const reason = run.denyReason(out.json);
          assert.ok(reason, `${run.agent}.${name}: ${out.stdout} ${out.stderr}`);
          assert.match(reason, /pycrypto(==2\.6\.1)? is DENIED \(DENIAL_BANNED\)/);
          assert.match(reason, /cryptography/);
          assert.match(reason, /policy request-approval pycrypto/);
        }
      });
      await t.step(`${run.agent}: allowed installs and other commands pass silently`, async () => {
        const shellPayload = await payload(run.agent, "shell", dir);
        for (const command of ["pip install requests", "echo 'pip install pycrypto'", "ls -la"]) {
          const out = await runAgentHook(run, dir, path, withCommand(shellPayload, command));
          assert.equal(out.stdout, "", `${run.agent}: ${command}`);
        }
      });
    }
    await t.step(
      "the gate's own files: Claude's Edit and Cursor's Delete of .policy.toml",
      async () => {
        for (
          const [run, name] of [[AGENT_RUNS[0], "policy_edit"], [
            AGENT_RUNS[2],
            "delete_policy",
          ]] as const
        ) {
          const out = await runAgentHook(run, dir, path, await payload(run.agent, name, dir));
          assert.match(
            run.denyReason(out.json) ?? "",
            /\.policy\.toml, which configures the dependency policy gate/,
          );
        }
      },
    );
    await t.step("Cursor preToolUse: an edit the gate allows is answered allow", async () => {
      const out = await runAgentHook(
        AGENT_RUNS[2],
        dir,
        path,
        await payload("cursor", "write_readme", dir),
      );
      assert.deepEqual(out.json, { permission: "allow" });
    });
    assert.equal(
      await Deno.readTextFile(join(dir, "pyproject.toml")),
      PYPROJECT,
      "hooks never write",
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(bin, { recursive: true });
  }
});

Deno.test("fail-closed: with the server unreachable every agent's hook denies, saying so", async () => {
  const bin = await policyOnPathDir();
  const dir = await tempGitRepo({ "pyproject.toml": PYPROJECT });
  const path = `${bin}:${Deno.env.get("PATH")}`;
  try {
    const url = deadServerUrl();
    await writePolicyToml(dir, url, "fail_open = false\n");
    const init = await shell("policy init --yes --agents all --no-precommit", {
      cwd: dir,
      env: { PATH: path },
    });
    assert.equal(init.code, 0, init.stderr);
    for (const run of AGENT_RUNS) {
      const out = await runAgentHook(run, dir, path, await payload(run.agent, "shell", dir));
      const reason = run.denyReason(out.json);
      assert.ok(reason, `${run.agent}: ${out.stdout} ${out.stderr}`);
      assert.match(reason, /policy server is unreachable/);
      assert.ok(reason.includes(url));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(bin, { recursive: true });
  }
});

Deno.test("Claude Code: sub-projects, requirements files and git worktrees are gated", async (t) => {
  const server = await startTestServer();
  const dir = await tempGitRepo({ "pyproject.toml": PYPROJECT });
  try {
    await writePolicyToml(dir, server.url, "auto_request_approval = false\n");
    await gitIn(dir, ["add", ".policy.toml"]);
    await gitIn(dir, ["commit", "-q", "-m", "policy"]);
    const write = (file: string, content: string, cwd = dir) =>
      JSON.stringify({
        ...common(cwd, "PreToolUse"),
        tool_name: "Write",
        tool_input: { file_path: file, content },
        tool_use_id: "toolu_01XYZ",
      });
    const cases: Array<[string, string]> = [
      [
        join(dir, "services/api/pyproject.toml"),
        `[project]\nname = "api"\ndependencies = ["pycrypto"]\n`,
      ],
      [join(dir, "requirements-dev.txt"), "pytest\npycrypto==2.6.1\n"],
      [join(dir, "requirements/base.txt"), "requests>=2.31\npycrypto\n"],
      [join(dir, "constraints.txt"), "pycrypto==2.6.1\n"],
    ];
    for (const [file, content] of cases) {
      await t.step(file.slice(dir.length + 1), async () => {
        const out = await hook(dir, write(file, content));
        assert.equal(out.json?.hookSpecificOutput?.permissionDecision, "deny", out.stderr);
      });
    }
    await t.step("-r FILE is read relative to the command's directory", async () => {
      await Deno.mkdir(join(dir, "svc"));
      await Deno.writeTextFile(join(dir, "svc/reqs.txt"), "requests\npycrypto==2.6.1\n");
      const out = await hook(
        dir,
        preToolUse(dir, "Bash", { command: "cd svc && python3 -m pip install -U -r reqs.txt" }),
      );
      assert.equal(out.json?.hookSpecificOutput?.permissionDecision, "deny");
      assert.match(out.json.hookSpecificOutput.permissionDecisionReason, /pycrypto==2\.6\.1/);
    });
    await t.step(
      "an edit inside a git worktree (CLAUDE_PROJECT_DIR at the main checkout)",
      async () => {
        const tree = `${dir}-tree`;
        await gitIn(dir, ["worktree", "add", "-q", tree]);
        try {
          const out = await hook(
            dir,
            write(
              join(tree, "pyproject.toml"),
              PYPROJECT.replace(`"requests>=2.31",`, `"requests>=2.31", "pycrypto",`),
              tree,
            ),
            { CLAUDE_PROJECT_DIR: dir },
          );
          assert.equal(out.json?.hookSpecificOutput?.permissionDecision, "deny", out.stderr);
        } finally {
          await gitIn(dir, ["worktree", "remove", "--force", tree]);
        }
      },
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a name guessed from a VCS URL is judged by the registry's rules only; uvx python installs nothing", async (t) => {
  const server = await startTestServer();
  const dir = await tempGitRepo({ "pyproject.toml": PYPROJECT });
  try {
    await writePolicyToml(dir, server.url, "auto_request_approval = false\n");
    const bash = (command: string) => hook(dir, preToolUse(dir, "Bash", { command }));
    await t.step("control: the same name installed by name is a typosquat", async () => {
      const out = await bash("pip install reqeusts");
      assert.equal(out.json?.hookSpecificOutput?.permissionDecision, "deny", out.stderr);
      assert.match(out.json.hookSpecificOutput.permissionDecisionReason, /DENIAL_TYPOSQUAT/);
    });
    await t.step("a repository named like a typosquat is not judged as one", async () => {
      const out = await bash(
        "pip install git+https://github.com/acme/reqeusts.git@refs/pull/7/head",
      );
      assert.notEqual(out.json?.hookSpecificOutput?.permissionDecision, "deny", out.stdout);
      assert.equal(out.stderr, "");
    });
    await t.step("a repository named like a banned package is denied", async () => {
      const out = await bash("pip install git+https://github.com/acme/pycrypto.git@main");
      assert.equal(out.json?.hookSpecificOutput?.permissionDecision, "deny", out.stderr);
      assert.match(out.json.hookSpecificOutput.permissionDecisionReason, /DENIAL_BANNED/);
    });
    await t.step("uvx python and uv tool run python run an interpreter", async () => {
      for (const command of ["uvx python@3.12 -c 'print(1)'", "uv tool run python -V"]) {
        const out = await bash(command);
        assert.equal(out.json, null, `${command}: ${out.stdout}`);
      }
    });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
