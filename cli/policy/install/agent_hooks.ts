/**
 * Hook registrations of every agent `policy init --agents` supports, each in
 * the agent's own project file and format (sources in docs/hooks.md). The
 * commands call `policy` from PATH: these files are committed.
 *
 * @module
 */

import { join } from "node:path";
import type { Agent } from "../agents/payload.ts";
import { hookCommand, isPolicyHookCommand } from "./command.ts";
import { readJsonObject, removeFile, updateJsonFile } from "./json_file.ts";
import type { Json } from "./json_file.ts";
import { hasOurHandler, withOurHandler, withoutOurHandlers } from "./hook_groups.ts";
import {
  claudeHooksInstalled,
  installClaudeHooks,
  isOurCommandHandler,
  settingsPath,
  uninstallClaudeHooks,
} from "./claude_settings.ts";
import type { StepResult } from "./precommit.ts";

/** Gemini CLI BeforeTool matcher: its shell, write and edit tools. */
export const GEMINI_MATCHER = "run_shell_command|write_file|replace";
/** Codex PreToolUse matcher: its shell tool and apply_patch. */
export const CODEX_MATCHER = "Bash|apply_patch";
/** Seconds agents wait for our hook (Gemini counts milliseconds). */
const TIMEOUT_S = 30;

/** Where each agent's hooks live, relative to the project root. */
export const HOOK_FILES: Record<Agent, string> = {
  claude: ".claude/settings.json",
  cursor: ".cursor/hooks.json",
  gemini: ".gemini/settings.json",
  copilot: ".github/hooks/policyd.json",
  codex: ".codex/hooks.json",
};

function cursorIsOurs(handler: Json): boolean {
  return typeof handler?.command === "string" && isPolicyHookCommand(handler.command);
}

/** Cursor `preToolUse` tools that edit files (its shell commands go to `beforeShellExecution`). */
export const CURSOR_EDIT_TOOLS = ["Write", "StrReplace", "Delete", "ApplyPatch", "EditNotebook"];

/** Our entries of one Cursor hook list. */
function cursorEntries(event: string): Json[] {
  const command = hookCommand("cursor");
  return event === "preToolUse"
    ? CURSOR_EDIT_TOOLS.map((matcher) => ({ command, matcher }))
    : [{ command }];
}

const CURSOR_EVENTS = ["beforeShellExecution", "preToolUse"];

function cursorHooks(settings: Json, install: boolean): Json {
  const hooks = { ...(settings.hooks as Json | undefined ?? {}) };
  for (const event of CURSOR_EVENTS) {
    const list = Array.isArray(hooks[event]) ? hooks[event] as Json[] : [];
    const next = [
      ...list.filter((h) => !cursorIsOurs(h)),
      ...(install ? cursorEntries(event) : []),
    ];
    if (next.length) hooks[event] = next;
    else delete hooks[event];
  }
  if (!install && Object.keys(hooks).length === 0) {
    const { hooks: _gone, version: _v, ...rest } = settings;
    return rest;
  }
  return { version: 1, ...settings, hooks };
}

/** True when Cursor's file holds exactly our current entries. */
function cursorCurrent(settings: Json): boolean {
  const hooks = settings.hooks as Json | undefined ?? {};
  return CURSOR_EVENTS.every((event) => {
    const ours = ((hooks[event] ?? []) as Json[]).filter(cursorIsOurs);
    return JSON.stringify(ours) === JSON.stringify(cursorEntries(event));
  });
}

function copilotFile(): Json {
  const command = hookCommand("copilot");
  return {
    version: 1,
    hooks: {
      preToolUse: [{ type: "command", bash: command, powershell: command, timeoutSec: TIMEOUT_S }],
    },
  };
}

/** Installs `agent`'s hook registration; idempotent. */
export function installAgentHooks(root: string, agent: Agent): StepResult {
  const path = join(root, HOOK_FILES[agent]);
  switch (agent) {
    case "claude":
      return installClaudeHooks(root, hookCommand("claude"));
    case "cursor":
      return {
        path,
        written: updateJsonFile(
          path,
          (s) => cursorCurrent(s) ? s : cursorHooks(cursorHooks(s, false), true),
        ),
      };
    case "gemini": {
      const handler = {
        type: "command",
        name: "policyd",
        command: hookCommand("gemini"),
        timeout: TIMEOUT_S * 1000,
      };
      return {
        path,
        written: updateJsonFile(
          path,
          (s) => withOurHandler(s, "BeforeTool", GEMINI_MATCHER, handler, isOurCommandHandler),
        ),
      };
    }
    case "copilot":
      return { path, written: updateJsonFile(path, () => copilotFile()) };
    case "codex": {
      const handler = { type: "command", command: hookCommand("codex"), timeout: TIMEOUT_S };
      return {
        path,
        written: updateJsonFile(path, (s) =>
          withOurHandler(
            withOurHandler(s, "SessionStart", undefined, handler, isOurCommandHandler),
            "PreToolUse",
            CODEX_MATCHER,
            handler,
            isOurCommandHandler,
          )),
      };
    }
  }
}

/** Removes `agent`'s hook registration, keeping everything else; returns whether it changed. */
export function uninstallAgentHooks(root: string, agent: Agent): boolean {
  const path = join(root, HOOK_FILES[agent]);
  switch (agent) {
    case "claude": {
      const committed = uninstallClaudeHooks(root);
      return uninstallClaudeHooks(root, "settings.local.json") || committed;
    }
    case "cursor":
      return updateJsonFile(path, (s) => cursorHooks(s, false));
    case "copilot": {
      const file = readJsonObject(path);
      return file !== null && JSON.stringify(file) === JSON.stringify(copilotFile()) &&
        removeFile(path);
    }
    case "gemini":
    case "codex":
      return updateJsonFile(path, (s) => withoutOurHandlers(s, isOurCommandHandler));
  }
}

/** Whether `agent`'s hook registration is present. */
export function agentHooksInstalled(root: string, agent: Agent): boolean {
  if (agent === "claude") return claudeHooksInstalled(root);
  let file: Json | null;
  try {
    file = readJsonObject(join(root, HOOK_FILES[agent]));
  } catch {
    return false;
  }
  if (file === null) return false;
  switch (agent) {
    case "cursor":
      return (((file.hooks as Json | undefined)?.beforeShellExecution ?? []) as Json[]).some(
        cursorIsOurs,
      );
    case "gemini":
      return hasOurHandler(file, "BeforeTool", isOurCommandHandler);
    case "codex":
      return hasOurHandler(file, "PreToolUse", isOurCommandHandler);
    case "copilot":
      return JSON.stringify(file) === JSON.stringify(copilotFile());
  }
}

export { settingsPath };
