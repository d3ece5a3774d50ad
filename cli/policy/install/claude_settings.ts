/**
 * Merges the policy hooks into Claude Code's settings without touching
 * anything else (SPEC §11): SessionStart, and PreToolUse with matcher
 * {@link PRE_TOOL_MATCHER} (edits and shell tools). `.claude/settings.json` is
 * committed and calls `policy` from PATH; `.claude/settings.local.json` holds
 * this machine's command when `policy` is not on PATH. Idempotent; uninstall
 * removes only our handlers.
 *
 * @module
 */

import { join } from "node:path";
import { isPolicyHookCommand } from "./command.ts";
import { readJsonObject, updateJsonFile } from "./json_file.ts";
import type { Json } from "./json_file.ts";
import { hasOurHandler, withOurHandler, withoutOurHandlers } from "./hook_groups.ts";
import type { StepResult } from "./precommit.ts";

/** Matcher of the PreToolUse hook: file edits and shell tools. */
export const PRE_TOOL_MATCHER = "Edit|Write|MultiEdit|NotebookEdit|Bash|PowerShell";
/** Seconds Claude Code waits for our hook. */
export const HOOK_TIMEOUT_S = 30;

/** The committed settings file, or the uncommitted local one. */
export type SettingsFile = "settings.json" | "settings.local.json";

/** Path of the project's Claude Code settings. */
export function settingsPath(root: string, file: SettingsFile = "settings.json"): string {
  return join(root, ".claude", file);
}

/** Whether a Claude-style handler is ours. */
export function isOurCommandHandler(handler: Json): boolean {
  return handler?.type === "command" && typeof handler.command === "string" &&
    isPolicyHookCommand(handler.command);
}

/** Installs (or refreshes) our hook handlers in `file`; returns whether it changed. */
export function installClaudeHooks(
  root: string,
  command: string,
  file: SettingsFile = "settings.json",
): StepResult {
  const path = settingsPath(root, file);
  const handler = { type: "command", command, timeout: HOOK_TIMEOUT_S };
  const written = updateJsonFile(path, (settings) => {
    const withStart = withOurHandler(
      settings,
      "SessionStart",
      undefined,
      handler,
      isOurCommandHandler,
    );
    return withOurHandler(withStart, "PreToolUse", PRE_TOOL_MATCHER, handler, isOurCommandHandler);
  });
  return { path, written };
}

/** Whether both of our handlers are present in the committed or the local settings. */
export function claudeHooksInstalled(root: string): boolean {
  return (["settings.json", "settings.local.json"] as const).some((file) => {
    let settings: Json | null;
    try {
      settings = readJsonObject(settingsPath(root, file));
    } catch {
      return false;
    }
    return ["SessionStart", "PreToolUse"].every((event) =>
      hasOurHandler(settings, event, isOurCommandHandler)
    );
  });
}

/** Removes our handlers from `file`, dropping emptied groups/events; deletes a file left empty. */
export function uninstallClaudeHooks(root: string, file: SettingsFile = "settings.json"): boolean {
  return updateJsonFile(
    settingsPath(root, file),
    (settings) => withoutOurHandlers(settings, isOurCommandHandler),
  );
}
