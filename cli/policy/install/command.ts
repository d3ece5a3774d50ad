/**
 * How installed hooks call the client back. Files a team commits call
 * `policy` from PATH (portable); only uncommitted files (the git hook,
 * `.claude/settings.local.json`) may hold this machine's absolute command.
 *
 * @module
 */

import { delimiter, join } from "node:path";
import type { Agent } from "../agents/payload.ts";

/** The portable command: `policy` found on PATH. */
export const PORTABLE_COMMAND = ["policy"];

/** Quotes one argument for POSIX sh (unchanged when it is plainly safe). */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'"'"'`)}'`;
}

/** Joins argv into a sh command line. */
export function shellJoin(args: string[]): string {
  return args.map(shellQuote).join(" ");
}

/** The hook command line for `agent` run through `base` (argv prefix of the client). */
export function hookCommand(agent: Agent, base: string[] = PORTABLE_COMMAND): string {
  return `${shellJoin(base)} hook${agent === "claude" ? "" : ` --agent ${agent}`}`;
}

/** Whether a hook command line is one `policy init` wrote (`… policy[.ts|.js] hook [--agent X]`). */
export function isPolicyHookCommand(command: string): boolean {
  return /(^|[\s/'"])policy(\.ts|\.js)?['"]?\s+hook(\s+--agent[= ][a-z]+)?\s*$/.test(command);
}

/** Whether an executable `name` is on the PATH given (the value of $PATH). */
export function onPath(name: string, path: string | undefined): boolean {
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    try {
      const info = Deno.statSync(join(dir, name));
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}
