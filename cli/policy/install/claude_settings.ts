/**
 * Merges the policy hooks into `.claude/settings.json` without touching
 * anything else (SPEC §11): SessionStart, and PreToolUse with matcher
 * `Edit|Write|MultiEdit`. Idempotent; uninstall removes only our handlers.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { ClientError } from "../exit_codes.ts";
import { isPolicyHookCommand } from "./command.ts";
import type { StepResult } from "./precommit.ts";

/** Matcher of the PreToolUse hook. */
export const EDIT_MATCHER = "Edit|Write|MultiEdit";
/** Seconds Claude Code waits for our hook. */
export const HOOK_TIMEOUT_S = 30;

type Json = Record<string, unknown>;
interface Group {
  matcher?: string;
  hooks?: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/** Path of the project's Claude Code settings. */
export function settingsPath(root: string): string {
  return join(root, ".claude", "settings.json");
}

function readSettings(path: string): Json | null {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw new ClientError(
    "config",
    `Cannot update ${path}: it is not a JSON object; fix or remove it`,
  );
}

function isOurs(handler: Record<string, unknown>): boolean {
  return handler?.type === "command" && typeof handler.command === "string" &&
    isPolicyHookCommand(handler.command);
}

function withoutOurs(groups: Group[]): Group[] {
  return groups
    .map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !isOurs(h)) }))
    .filter((g, i) => g.hooks.length > 0 || (groups[i].hooks ?? []).length === 0);
}

function hasExact(groups: Group[], matcher: string | undefined, command: string): boolean {
  return groups.some((g) =>
    g.matcher === matcher && (g.hooks ?? []).some((h) => isOurs(h) && h.command === command)
  ) && groups.flatMap((g) => g.hooks ?? []).filter(isOurs).length === 1;
}

function merged(settings: Json, command: string): Json {
  const hooks = { ...(settings.hooks as Record<string, Group[]> | undefined ?? {}) };
  const wanted: Array<[string, string | undefined]> = [["SessionStart", undefined], [
    "PreToolUse",
    EDIT_MATCHER,
  ]];
  for (const [event, matcher] of wanted) {
    const groups = Array.isArray(hooks[event]) ? hooks[event] : [];
    if (hasExact(groups, matcher, command)) continue;
    const group: Group = matcher === undefined ? {} : { matcher };
    group.hooks = [{ type: "command", command, timeout: HOOK_TIMEOUT_S }];
    hooks[event] = [...withoutOurs(groups), group];
  }
  return { ...settings, hooks };
}

function write(path: string, value: Json): void {
  Deno.mkdirSync(dirname(path), { recursive: true });
  Deno.writeTextFileSync(path, JSON.stringify(value, null, 2) + "\n");
}

/** Installs (or refreshes) our hook handlers; returns whether the file changed. */
export function installClaudeHooks(root: string, command: string): StepResult {
  const path = settingsPath(root);
  const before = readSettings(path) ?? {};
  const after = merged(before, command);
  if (JSON.stringify(after) === JSON.stringify(before)) return { path, written: false };
  write(path, after);
  return { path, written: true };
}

/** Whether both of our handlers are present. */
export function claudeHooksInstalled(root: string): boolean {
  let settings: Json | null;
  try {
    settings = readSettings(settingsPath(root));
  } catch {
    return false;
  }
  const hooks = (settings?.hooks ?? {}) as Record<string, Group[]>;
  return ["SessionStart", "PreToolUse"].every((event) =>
    Array.isArray(hooks[event]) && hooks[event].some((g) => (g.hooks ?? []).some(isOurs))
  );
}

/** Removes our handlers, dropping emptied groups/events; deletes a file left empty. */
export function uninstallClaudeHooks(root: string): boolean {
  const path = settingsPath(root);
  const settings = readSettings(path);
  if (settings === null || typeof settings.hooks !== "object" || settings.hooks === null) {
    return false;
  }
  const hooks: Record<string, Group[]> = {};
  for (const [event, groups] of Object.entries(settings.hooks as Record<string, Group[]>)) {
    const kept = Array.isArray(groups) ? withoutOurs(groups) : groups;
    if (!Array.isArray(kept) || kept.length) hooks[event] = kept;
  }
  const after: Json = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete after.hooks;
  if (JSON.stringify(after) === JSON.stringify(settings)) return false;
  if (Object.keys(after).length === 0) {
    Deno.removeSync(path);
    try {
      Deno.removeSync(dirname(path)); // only succeeds when .claude/ is now empty
    } catch {
      // other files live there; keep the directory
    }
  } else {
    write(path, after);
  }
  return true;
}
