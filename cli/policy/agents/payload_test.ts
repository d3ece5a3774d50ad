import assert from "node:assert/strict";
import { normalizePayload } from "./payload.ts";
import type { Agent, NormalizedEvent } from "./payload.ts";
import { decisionAnswer, preToolAnswer, sessionStartAnswer } from "./answer.ts";

const CWD = "/work/demo";
const PYPROJECT = `[project]\nname = "demo"\ndependencies = [\n    "requests>=2.31",\n]\n`;
const WITH_PYCRYPTO = PYPROJECT.replace(
  `    "requests>=2.31",\n`,
  `    "requests>=2.31",\n    "pycrypto==2.6.1",\n`,
);

function fixture(agent: string): Record<string, unknown> {
  const url = new URL(`../../../tests/fixtures/agents/${agent}.json`, import.meta.url);
  return JSON.parse(Deno.readTextFileSync(url).replaceAll("__CWD__", CWD));
}

function normalized(agent: string, name: string, as: Agent): NormalizedEvent {
  const event = normalizePayload(fixture(agent)[name], as);
  assert.ok(typeof event !== "string", String(event));
  return event;
}

const AS: Record<string, Agent> = {
  claude: "claude",
  vscode: "claude", // VS Code Copilot runs the hooks of .claude/settings.json
  cursor: "cursor",
  gemini: "gemini",
  copilot: "copilot",
  codex: "codex",
};

Deno.test("every agent's shell payload becomes the same shell action", () => {
  for (const [agent, as] of Object.entries(AS)) {
    const event = normalized(agent, "shell", as);
    assert.equal(event.event, "pre_tool", agent);
    assert.equal(event.dialect, agent, agent);
    assert.equal(event.cwd, CWD, agent);
    assert.deepEqual(event.action, { kind: "shell", command: "pip install pycrypto" }, agent);
  }
});

Deno.test("every agent's file-edit payload becomes the edited file's new content", () => {
  for (const [agent, as] of Object.entries(AS)) {
    for (const name of ["edit", "write"]) {
      if (!fixture(agent)[name]) continue;
      const event = normalized(agent, name, as);
      assert.equal(event.action?.kind, "files", `${agent}.${name}`);
      const changes = event.action!.kind === "files" ? event.action!.changes : [];
      assert.equal(changes.length, 1);
      const [change] = changes;
      if (change.path.endsWith("pyproject.toml")) {
        assert.equal(change.path, `${CWD}/pyproject.toml`);
        assert.equal(change.after(PYPROJECT), WITH_PYCRYPTO, `${agent}.${name}`);
      } else {
        assert.equal(change.path, `${CWD}/requirements-dev.txt`);
        assert.equal(change.after(null), "pytest\npycrypto\n");
      }
    }
  }
});

Deno.test("a shell tool's own directory (Gemini dir_path) is where the command runs", () => {
  const event = normalizePayload({
    hook_event_name: "BeforeTool",
    cwd: CWD,
    tool_name: "run_shell_command",
    tool_input: { command: "pip install -r req.txt", dir_path: "svc" },
  }, "gemini");
  assert.ok(typeof event !== "string");
  assert.deepEqual(event.action, {
    kind: "shell",
    command: "pip install -r req.txt",
    cwd: `${CWD}/svc`,
  });
});

Deno.test("normalizePayload() rejects what is not a hook payload and passes over other events", () => {
  assert.equal(typeof normalizePayload([1, 2], "claude"), "string");
  assert.equal(typeof normalizePayload({ tool_name: "Write" }, "claude"), "string");
  const other = normalizePayload({ hook_event_name: "PostToolUse", tool_name: "Bash" }, "claude");
  assert.ok(typeof other !== "string" && other.event === "other");
  const start = normalizePayload({ hook_event_name: "SessionStart", source: "startup" }, "codex");
  assert.ok(typeof start !== "string" && start.event === "session_start");
  const read = normalizePayload(
    {
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: "/x/pyproject.toml" },
    },
    "claude",
  );
  assert.ok(typeof read !== "string" && read.action === null);
});

Deno.test("preToolAnswer() words a deny in each agent's format and never says allow", () => {
  const deny = { kind: "deny" as const, message: "pycrypto is DENIED" };
  assert.deepEqual(JSON.parse(preToolAnswer("claude", deny)!), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "pycrypto is DENIED",
    },
  });
  assert.equal(preToolAnswer("codex", deny), preToolAnswer("claude", deny));
  assert.equal(preToolAnswer("vscode", deny), preToolAnswer("claude", deny));
  assert.deepEqual(JSON.parse(preToolAnswer("cursor", deny)!), {
    permission: "deny",
    user_message: "pycrypto is DENIED",
    agent_message: "pycrypto is DENIED",
  });
  assert.deepEqual(JSON.parse(preToolAnswer("gemini", deny)!), {
    decision: "deny",
    reason: "pycrypto is DENIED",
  });
  assert.deepEqual(JSON.parse(preToolAnswer("copilot", deny)!), {
    permissionDecision: "deny",
    permissionDecisionReason: "pycrypto is DENIED",
  });
  const context = { kind: "context" as const, message: "left-pad is PROVISIONALLY_ALLOWED" };
  for (const agent of ["claude", "codex", "vscode", "cursor", "gemini", "copilot"] as const) {
    assert.ok(!(preToolAnswer(agent, context) ?? "").includes("allow"), agent);
  }
  assert.equal(preToolAnswer("cursor", context), null);
  // Cursor's preToolUse blocks every tool when the hook prints nothing
  assert.deepEqual(JSON.parse(preToolAnswer("cursor", { kind: "allow" }, "preToolUse")!), {
    permission: "allow",
  });
  assert.equal(preToolAnswer("cursor", { kind: "allow" }, "beforeShellExecution"), null);
  const warn = { kind: "warn" as const, message: "could not read" };
  assert.equal(JSON.parse(preToolAnswer("claude", warn)!).systemMessage, "could not read");
  assert.equal(JSON.parse(preToolAnswer("cursor", warn)!).permission, "ask");
  assert.equal(JSON.parse(preToolAnswer("gemini", warn)!).systemMessage, "could not read");
  const warned = (dialect: "copilot" | "claude") =>
    JSON.parse(decisionAnswer({ dialect, eventName: "preToolUse" }, ["warn", "could not read"])!);
  assert.equal(warned("copilot").permissionDecision, "deny");
  assert.equal(warned("claude").systemMessage, "could not read");
  assert.equal(sessionStartAnswer("gemini", "x"), null);
  assert.match(sessionStartAnswer("claude", "x")!, /"hookEventName":"SessionStart"/);
});
