/**
 * The files that switch the gate itself: `.policy.toml` (any folder), the agents' hook files
 * `policy init` writes, and the git pre-commit hook it installs. An agent's edit, deletion or
 * shell write of one of them is denied (docs/hooks.md, "The gate protects itself"). Path tests
 * only, no imports beyond `os_path.ts`, so the check costs nothing on the hook's fast path.
 *
 * @module
 */

import { baseName } from "../os_path.ts";

/** Hook files `policy init --agents` writes, relative to the project (see install/agent_hooks.ts). */
export const PROTECTED_SUFFIXES = [
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".cursor/hooks.json",
  ".gemini/settings.json",
  ".github/hooks/policyd.json",
  ".codex/hooks.json",
  ".git/hooks/pre-commit",
  ".git/hooks/pre-commit.policy-chained",
];

/** True when `path` is one of the gate's own files. */
export function isProtectedPath(path: string): boolean {
  const normal = path.replaceAll("\\", "/");
  if (baseName(normal) === ".policy.toml") return true;
  return PROTECTED_SUFFIXES.some((s) => normal === s || normal.endsWith(`/${s}`));
}

/** The deny message for an agent's change of the gate's own files. */
export function protectedMessage(paths: string[]): string {
  return `This changes ${[...new Set(paths)].join(", ")}, which configures the dependency ` +
    `policy gate itself. Coding agents may not change it; ask a human to make this change.`;
}
