/**
 * The one normalising adapter: every agent's hook payload becomes
 * {event, shell command or file changes, cwd}. Field names differ between
 * agents (snake_case, camelCase, a JSON string of arguments), tool names
 * differ (`Bash`, `run_shell_command`, `bash`, `run_in_terminal`; `Edit`,
 * `replace`, `edit`, `replace_string_in_file`, `insert_edit_into_file`, `apply_patch`), the shapes of
 * edits are few. See docs/hooks.md for each agent's documented payload.
 *
 * @module
 */

import { hookPayload } from "../generated/hook_payload.js";
import { resolvePath } from "../os_path.ts";
import { applyHunks, parsePatch, patchText } from "./apply_patch.ts";
import { specialToolAction } from "./agent_tools.ts";

import type { Agent } from "./names.ts";

export type { Agent } from "./names.ts";
/** Payload dialects: the agents plus VS Code Copilot, which reads Claude's settings. */
export type Dialect = Agent | "vscode";

/** A file the tool call would change: its path and its text afterwards. */
export interface FileChange {
  /** Absolute path. */
  path: string;
  /** Where the current content is read from when not `path` (a patch's `*** Move to:`). */
  readFrom?: string;
  /** The content after the call given the current one (null: absent); null when the call fails. */
  after(current: string | null): string | null;
  /**
   * The text a replacement inserts and the text it takes out, for when {@link after}
   * cannot simulate it (editors that match loosely still apply such an edit).
   */
  inserted?: { added: string; removed: string };
}

/** What a tool call would do, as far as the gate cares. */
export type ToolAction =
  | { kind: "shell"; command: string; cwd?: string }
  | { kind: "files"; changes: FileChange[] };

/** A payload reduced to what the gate needs. */
export interface NormalizedEvent {
  dialect: Dialect;
  /** The payload's event name as sent (`PreToolUse`, `preToolUse`, `beforeShellExecution`). */
  eventName: string;
  event: "pre_tool" | "session_start" | "other";
  /** For `pre_tool`: what the tool would do, or null for tools we ignore. */
  action: ToolAction | null;
  /** The agent's working directory, when the payload says. */
  cwd: string | null;
  /** The model, when the payload says. */
  model: string | null;
}

type Json = Record<string, unknown>;

const SHELL_TOOLS = new Set([
  "bash",
  "powershell",
  "shell",
  "run_shell_command",
  "run_in_terminal",
  "runterminalcommand",
  "runinterminal",
  "terminal",
  "local_shell",
  "exec_command",
]);

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function obj(value: unknown): Json {
  if (typeof value === "string") {
    try {
      return obj(JSON.parse(value)); // Copilot CLI sends toolArgs as a JSON string
    } catch {
      return {};
    }
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Json : {};
}

function pick(input: Json, ...keys: string[]): unknown {
  for (const key of keys) if (input[key] !== undefined) return input[key];
  return undefined;
}

/** A text replacement as the editors describe it. */
interface Replacement {
  oldText: string;
  newText: string;
  all: boolean;
}

function replacement(input: Json): Replacement | null {
  const oldText = pick(input, "old_string", "oldString", "old_str", "oldStr");
  const newText = pick(input, "new_string", "newString", "new_str", "newStr");
  if (typeof oldText !== "string" || typeof newText !== "string") return null;
  const expected = pick(input, "expected_replacements", "expectedReplacements");
  const all = input.replace_all === true || input.replaceAll === true ||
    (typeof expected === "number" && expected > 1);
  return { oldText, newText, all };
}

function applyReplacement(content: string | null, r: Replacement): string | null {
  const base = content ?? "";
  if (r.oldText === "") return base === "" ? r.newText : null;
  if (!base.includes(r.oldText)) return null;
  return r.all ? base.split(r.oldText).join(r.newText) : base.replace(r.oldText, () => r.newText);
}

function absolute(path: string, cwd: string | null): string {
  return resolvePath(cwd ?? ".", path);
}

function editsOf(input: Json): Replacement[] | null {
  const list = pick(input, "edits", "replacements");
  if (!Array.isArray(list)) return null;
  const out: Replacement[] = [];
  for (const item of list) {
    const r = replacement(obj(item));
    if (r === null) return null;
    out.push(r);
  }
  return out;
}

function insertedBy(rs: Replacement[]): { added: string; removed: string } {
  return {
    added: rs.map((r) => r.newText).join("\n"),
    removed: rs.map((r) => r.oldText).join("\n"),
  };
}

/** File changes of an editor tool, judged by the shape of its input. */
function fileChanges(input: Json, cwd: string | null): FileChange[] {
  const list = pick(input, "replacements", "edits");
  if (Array.isArray(list) && list.some((item) => str(pick(obj(item), "filePath", "file_path")))) {
    // VS Code's multi_replace_string_in_file: every replacement names its file
    const byFile = new Map<string, Replacement[]>();
    for (const item of list) {
      const entry = obj(item);
      const path = str(pick(entry, "filePath", "file_path"));
      const r = replacement(entry);
      if (path === null || r === null) continue;
      const key = absolute(path, cwd);
      byFile.set(key, [...(byFile.get(key) ?? []), r]);
    }
    return [...byFile].map(([path, rs]) => ({
      path,
      after: (current) =>
        rs.reduce<string | null>((t, r) => t === null ? null : applyReplacement(t, r), current),
      inserted: insertedBy(rs),
    }));
  }
  const path = str(pick(input, "file_path", "filePath", "path", "absolute_path", "target_file"));
  if (path === null) return [];
  const file = absolute(path, cwd);
  const content = pick(input, "content", "file_text", "fileText", "contents");
  const single = replacement(input);
  const edits = editsOf(input);
  if (single) {
    return [{
      path: file,
      after: (current) => applyReplacement(current, single),
      inserted: insertedBy([single]),
    }];
  }
  if (edits) {
    return [{
      path: file,
      inserted: insertedBy(edits),
      after: (current) =>
        edits.reduce<string | null>(
          (t, r) => t === null ? null : applyReplacement(t, r),
          current ?? "",
        ),
    }];
  }
  if (typeof content === "string") return [{ path: file, after: () => content }];
  const sketch = pick(input, "code");
  if (typeof sketch === "string") {
    // VS Code's insert_edit_into_file: a sketch of the new text with `...existing code...`
    // markers, merged into the file by VS Code itself; only the lines it inserts can be judged.
    return [{ path: file, after: () => null, inserted: { added: sketch, removed: "" } }];
  }
  return [];
}

/** File changes of a Codex `apply_patch` (paths relative to `cwd`). */
function patchChanges(patch: string, cwd: string | null): FileChange[] {
  const changes: FileChange[] = [];
  for (const op of parsePatch(patch)) {
    const path = absolute(op.path, cwd);
    if (op.kind === "add") changes.push({ path, after: () => op.content });
    if (op.kind === "delete") changes.push({ path, after: () => "" }); // adds nothing; may be guarded
    if (op.kind === "update") {
      const apply = (current: string | null) =>
        current === null ? null : applyHunks(current, op.hunks);
      changes.push(
        op.moveTo
          ? { path: absolute(op.moveTo, cwd), readFrom: path, after: apply }
          : { path, after: apply },
      );
    }
  }
  return changes;
}

function toolAction(
  tool: string,
  input: Json,
  cwd: string | null,
  raw: unknown,
): ToolAction | null {
  const lower = tool.toLowerCase();
  const special = specialToolAction(tool, input, cwd);
  if (special !== undefined) return special;
  const command = pick(input, "command", "cmd", "commandLine");
  // Copilot's apply_patch sends the raw patch text as toolArgs
  const patch = patchText(command) ?? patchText(input.patch) ?? patchText(input.input) ??
    patchText(raw);
  if (lower === "apply_patch" || lower === "applypatch" || patch !== null) {
    return patch === null ? null : { kind: "files", changes: patchChanges(patch, cwd) };
  }
  if (SHELL_TOOLS.has(lower) || (lower === "" && command !== undefined)) {
    // Gemini's run_shell_command may name a directory (relative to the project) to run in
    const dir = str(pick(input, "dir_path", "directory", "workdir", "cwd"));
    const where = dir === null ? {} : { cwd: absolute(dir, cwd) };
    if (typeof command === "string") return { kind: "shell", command, ...where };
    if (Array.isArray(command) && command.every((w) => typeof w === "string")) {
      return {
        kind: "shell",
        command: command.map((w) => `'${w.replaceAll("'", `'"'"'`)}'`).join(" "),
      };
    }
    return null;
  }
  const changes = fileChanges(input, cwd);
  return changes.length ? { kind: "files", changes } : null;
}

const PRE_TOOL = new Set(["pretooluse", "beforetool", "beforeshellexecution"]);
const SESSION_START = new Set(["sessionstart"]);

/**
 * Normalises one payload from `agent`'s hook. Returns a one-line error for
 * input that is not a hook payload at all.
 */
export function normalizePayload(raw: unknown, agent: Agent): NormalizedEvent | string {
  // The validator generated from PayloadSchema (payload_schema.ts) is exact for
  // it both ways (validate_test.ts), so no zod fallback is needed to word this.
  if (!hookPayload(raw)) return "standard input is not a JSON object";
  const p = raw as Json;
  const camel = typeof p.hookEventName === "string" && typeof p.hook_event_name !== "string";
  const dialect: Dialect = agent === "claude" && camel ? "vscode" : agent;
  let eventName = str(p.hook_event_name) ?? str(p.hookEventName);
  if (eventName === null && agent === "copilot" && p.toolName !== undefined) {
    eventName = "preToolUse";
  }
  if (eventName === null) return "invalid hook event (hook_event_name: missing)";
  const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots : [];
  const cwd = str(p.cwd) ?? str(roots[0]);
  const model = str(p.model) ?? (obj(p.model).id as string | undefined ?? null);
  const lower = eventName.toLowerCase();
  if (SESSION_START.has(lower)) {
    return { dialect, eventName, event: "session_start", action: null, cwd, model };
  }
  if (!PRE_TOOL.has(lower)) {
    return { dialect, eventName, event: "other", action: null, cwd, model };
  }
  const tool = str(p.tool_name) ?? str(p.toolName) ?? "";
  const args = p.tool_input ?? p.toolInput ?? p.toolArgs ?? p.tool_args;
  const action = lower === "beforeshellexecution"
    ? (str(p.command) ? { kind: "shell" as const, command: p.command as string } : null)
    : toolAction(tool, obj(args), cwd, args);
  return { dialect, eventName, event: "pre_tool", action, cwd, model };
}
