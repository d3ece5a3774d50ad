/**
 * End-to-end: `policy hook` fed real Claude Code payloads (shapes from the
 * hooks reference) against a real policyd, as a subprocess.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { deadServerUrl, policy, tempGitRepo, writePolicyToml } from "../../cli/policy/_testing.ts";

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
        preToolUse(dir, "Bash", { command: "pip install pycrypto", description: "install" }),
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
