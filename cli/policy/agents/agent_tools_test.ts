import assert from "node:assert/strict";
import { normalizePayload } from "./payload.ts";
import type { ToolAction } from "./payload.ts";
import { gateAction } from "../hooks/gate.ts";
import { resolveConfig } from "../config.ts";
import { ClientError } from "../exit_codes.ts";

function action(tool: string, input: unknown, agent: "claude" | "copilot" = "claude"): ToolAction {
  const payload = agent === "copilot"
    ? { cwd: "/p", toolName: tool, toolArgs: input }
    : { hook_event_name: "PreToolUse", cwd: "/p", tool_name: tool, tool_input: input };
  const event = normalizePayload(payload, agent);
  assert.ok(typeof event !== "string" && event.action !== null, tool);
  return event.action;
}

Deno.test("NotebookEdit: %pip and ! lines and %%bash cells are shell, %%writefile writes a file", () => {
  assert.deepEqual(
    action("NotebookEdit", {
      notebook_path: "/p/a.ipynb",
      new_source: "%pip install pycrypto\n!uv add rich\nimport os",
    }),
    { kind: "shell", command: "pip install pycrypto\nuv add rich" },
  );
  assert.deepEqual(
    action("NotebookEdit", { notebook_path: "/p/a.ipynb", new_source: "%%bash\npip install x" }),
    { kind: "shell", command: "pip install x" },
  );
  const file = action("NotebookEdit", {
    notebook_path: "/p/a.ipynb",
    new_source: "%%writefile -a requirements.txt\npycrypto",
  });
  assert.equal(file.kind, "files");
  if (file.kind === "files") {
    assert.equal(file.changes[0].path, "/p/requirements.txt");
    assert.equal(file.changes[0].after("requests\n"), "requests\npycrypto\n");
  }
});

Deno.test("create_and_run_task, str_replace_editor insert and Delete become actions", () => {
  assert.deepEqual(
    action("create_and_run_task", {
      workspaceFolder: "/p/app",
      task: { label: "deps", type: "shell", command: "pip", args: ["install", "a b"] },
    }),
    { kind: "shell", command: "pip install 'a b'", cwd: "/p/app" },
  );
  const insert = action(
    "str_replace_editor",
    JSON.stringify({ command: "insert", path: "/p/r.txt", insert_line: 1, new_str: "x\n" }),
    "copilot",
  );
  assert.ok(insert.kind === "files");
  assert.equal(insert.changes[0].after("a\nb\n"), "a\nx\nb\n");
  const gone = action("Delete", { path: ".policy.toml" });
  assert.ok(gone.kind === "files");
  assert.equal(gone.changes[0].path, "/p/.policy.toml");
});

Deno.test("edits, deletions and patches of the gate's own files are denied without a server", async () => {
  const config = await resolveConfig({ project: "p" }, "/p", null);
  const deps = { client: new ClientError("config", "no client"), readFile: () => null };
  const patch = "*** Begin Patch\n*** Delete File: .codex/hooks.json\n*** End Patch\n";
  for (
    const a of [
      action("Delete", { path: "/p/sub/.policy.toml" }),
      action("Write", { file_path: "/p/.git/hooks/pre-commit", content: "exit 0\n" }),
      action("apply_patch", patch, "copilot"),
    ]
  ) {
    const decision = await gateAction(a, "/p", config, deps);
    assert.equal(decision?.[0], "deny");
    assert.match(decision?.[1] ?? "", /configures the dependency policy gate itself/);
  }
});
