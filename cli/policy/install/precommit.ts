/**
 * The git pre-commit shim: installed with a marker, chaining a foreign hook
 * that was there before, removed by uninstall (SPEC §11 "Installers").
 *
 * @module
 */

import { join } from "node:path";
import { shellJoin, shellQuote } from "./command.ts";
import { readTextOrNull } from "../read_text.ts";
import { GIT_EXIT_TRAILER, STAGED_DIFF_ARGV } from "../staged_diff.ts";

/** Marker comment that identifies our shim. */
export const PRECOMMIT_MARKER = "# policyd-precommit-shim";
/** Name a pre-existing foreign hook is moved to; the shim runs it first. */
export const CHAINED_HOOK = "pre-commit.policy-chained";

/** True iff the pre-commit hook in `hooksDir` carries our marker. */
export function precommitInstalled(hooksDir: string): boolean {
  return readTextOrNull(join(hooksDir, "pre-commit"))?.includes(PRECOMMIT_MARKER) ?? false;
}

/**
 * The shim script: optional `cd` into the project (relative to the repo top),
 * chain, then run. The shim starts the staged-diff git process itself and
 * pipes its output, then git's exit status, into `policy precommit
 * --staged-diff-stdin`: git runs while the client starts instead of after it
 * (docs/performance.md, "Pre-commit, the shim's git"). The client checks every
 * version against its blob id and runs git itself when the pipe cannot be read.
 */
export function shimScript(selfCommand: string[], projectDir: string): string {
  const cd = projectDir ? `cd ${shellQuote(projectDir)} || exit 1\n` : "";
  const diff = shellJoin(["git", ...STAGED_DIFF_ARGV]);
  const run = shellJoin([...selfCommand, "precommit", "--staged-diff-stdin"]);
  return `#!/bin/sh
${PRECOMMIT_MARKER} (installed by \`policy init\`; \`policy uninstall\` removes it)
hook_dir=$(dirname "$0")
if [ -x "$hook_dir/${CHAINED_HOOK}" ]; then
  "$hook_dir/${CHAINED_HOOK}" "$@" || exit $?
fi
${cd}{ ${diff} 2>/dev/null; echo "${GIT_EXIT_TRAILER}$?"; } | ${run}
`;
}

/** Result of an installer step: what happened, for the init report. */
export interface StepResult {
  path: string;
  written: boolean;
  note?: string;
}

/**
 * Installs the shim into `hooksDir`. A foreign hook is moved to
 * {@link CHAINED_HOOK} and run first; an identical shim is left untouched.
 */
export function installPrecommit(
  hooksDir: string,
  selfCommand: string[],
  projectDir: string,
): StepResult {
  const path = join(hooksDir, "pre-commit");
  const script = shimScript(selfCommand, projectDir);
  const existing = readTextOrNull(path);
  if (existing === script) return { path, written: false };
  if (existing !== null && !existing.includes(PRECOMMIT_MARKER)) {
    const chained = join(hooksDir, CHAINED_HOOK);
    if (readTextOrNull(chained) !== null) {
      return { path, written: false, note: `kept the existing hook; ${chained} is taken` };
    }
    Deno.renameSync(path, chained);
  }
  Deno.mkdirSync(hooksDir, { recursive: true });
  Deno.writeTextFileSync(path, script);
  Deno.chmodSync(path, 0o755);
  return { path, written: true };
}

/** Removes our shim and puts a chained foreign hook back. Returns whether anything changed. */
export function uninstallPrecommit(hooksDir: string): boolean {
  const path = join(hooksDir, "pre-commit");
  if (!precommitInstalled(hooksDir)) return false;
  Deno.removeSync(path);
  const chained = join(hooksDir, CHAINED_HOOK);
  if (readTextOrNull(chained) !== null) Deno.renameSync(chained, path);
  return true;
}
