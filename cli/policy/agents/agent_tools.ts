/**
 * Agent tools whose input is neither a shell command nor a plain file edit, reduced to one:
 * Claude Code's `NotebookEdit` (`!pip install` / `%pip install` lines and `%%bash` cells run as
 * shell commands, `%%writefile` cells write a file), VS Code's `create_and_run_task` (a task's
 * command and arguments), Copilot's `str_replace_editor` `insert` (text after a line), and
 * Cursor's `Delete` (the file is gone). See docs/hooks.md for each payload's source.
 *
 * @module
 */

import { resolvePath } from "../os_path.ts";
import type { FileChange, ToolAction } from "./payload.ts";

type Json = Record<string, unknown>;

/** The shell command of a notebook line (`!pip install x`, `%pip install x`), or null. */
function cellCommand(line: string): string | null {
  const text = line.trim();
  if (text.startsWith("!")) return text.slice(1);
  const magic = /^%(pip|uv|conda|mamba|sh|system)\b\s*(.*)$/.exec(text);
  if (magic === null) return null;
  return magic[1] === "sh" || magic[1] === "system" ? magic[2] : `${magic[1]} ${magic[2]}`;
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}

/** A notebook cell's source as one action: its shell lines, or the file `%%writefile` writes. */
export function notebookAction(source: string, cwd: string | null): ToolAction | null {
  const lines = source.split(/\r?\n/);
  const cell = /^\s*%%(\w+)\s*(.*)$/.exec(lines[0] ?? "");
  if (cell?.[1] === "writefile") {
    const args = cell[2].trim().split(/\s+/);
    const append = args[0] === "-a" || args[0] === "--append";
    const file = resolvePath(cwd ?? ".", args[args.length - 1] ?? "");
    const body = lines.slice(1).join("\n") + "\n";
    const change: FileChange = {
      path: file,
      after: (current) => append ? (current ?? "") + body : body,
    };
    return { kind: "files", changes: [change] };
  }
  if (cell && /^(bash|sh|script)$/.test(cell[1])) {
    return { kind: "shell", command: lines.slice(1).join("\n") };
  }
  const commands = lines.map(cellCommand).filter((c) => c !== null);
  return commands.length ? { kind: "shell", command: commands.join("\n") } : null;
}

/** A VS Code task as a shell command line (`task.command` and `task.args`). */
function taskAction(input: Json): ToolAction | null {
  const task = (typeof input.task === "object" && input.task !== null ? input.task : input) as Json;
  const command = typeof task.command === "string" ? task.command : null;
  if (command === null) return null;
  const args = Array.isArray(task.args)
    ? task.args.map((a) => typeof a === "string" ? a : String((a as Json)?.value ?? ""))
    : [];
  const line = [command, ...args.map(quoteWord)].join(" ");
  const dir = typeof input.workspaceFolder === "string" ? { cwd: input.workspaceFolder } : {};
  return { kind: "shell", command: line, ...dir };
}

/** `str_replace_editor` `insert`: `new_str` after line `insert_line` (0: at the top). */
function insertAction(input: Json, cwd: string | null): ToolAction | null {
  const path = typeof input.path === "string" ? input.path : null;
  const text = input.new_str ?? input.newStr;
  const at = Number(input.insert_line ?? input.insertLine ?? 0);
  if (path === null || typeof text !== "string" || !Number.isInteger(at)) return null;
  return {
    kind: "files",
    changes: [{
      path: resolvePath(cwd ?? ".", path),
      after: (current) => {
        const lines = (current ?? "").split("\n");
        lines.splice(Math.min(at, lines.length), 0, ...text.replace(/\n$/, "").split("\n"));
        return lines.join("\n");
      },
      inserted: { added: text, removed: "" },
    }],
  };
}

/**
 * The action of one of these tools; undefined when `tool` is not one of them (the caller reads
 * it as a shell or edit tool).
 */
export function specialToolAction(
  tool: string,
  input: Json,
  cwd: string | null,
): ToolAction | null | undefined {
  const lower = tool.toLowerCase();
  if (lower === "notebookedit" || lower === "editnotebook" || lower === "edit_notebook") {
    const source = input.new_source ?? input.newSource ?? input.new_string;
    return typeof source === "string" ? notebookAction(source, cwd) : null;
  }
  if (lower === "create_and_run_task" || lower === "run_vs_code_task") return taskAction(input);
  if (input.command === "insert") return insertAction(input, cwd);
  if (lower === "delete" || lower === "delete_file") {
    const path = input.path ?? input.file_path ?? input.target_file;
    if (typeof path !== "string") return null;
    return { kind: "files", changes: [{ path: resolvePath(cwd ?? ".", path), after: () => "" }] };
  }
  return undefined;
}
