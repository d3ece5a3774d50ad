/**
 * Whether the installed bundle (tools/bundle_client.ts) still matches its
 * checkout: `deno task install` builds `policy` from the checkout, so after a
 * `git pull` it runs the old code until the task runs again. The commands of
 * the commander program say so on stderr; the fast paths (`check`, `hook`,
 * `precommit`) do not look. Git's files are read directly (HEAD, the loose
 * ref, `packed-refs`, a worktree's `.git` file): starting git would cost more
 * than the commands it warns for.
 *
 * @module
 */

import { joinPath, parentDir, resolvePath } from "./os_path.ts";
import { readTextOrNull } from "./read_text.ts";

/** Reads a text file, null when it cannot be read (a fake in tests). */
export type ReadText = (path: string) => string | null;

/** The git directory of the checkout holding `file`: the nearest `.git` above it, or null. */
function gitDirAbove(file: string, read: ReadText): string | null {
  for (let dir = parentDir(file), last = ""; dir !== last; last = dir, dir = parentDir(dir)) {
    const dotGit = joinPath(dir, ".git");
    if (read(joinPath(dotGit, "HEAD")) !== null) return dotGit;
    const pointer = /^gitdir: (.+)$/m.exec(read(dotGit) ?? "")?.[1]?.trim();
    if (pointer) return resolvePath(dir, pointer);
  }
  return null;
}

/** The commit `HEAD` of the git directory names (a branch through its loose or packed ref). */
export function headCommit(gitDir: string, read: ReadText = readTextOrNull): string | null {
  const head = read(joinPath(gitDir, "HEAD"))?.trim();
  if (!head) return null;
  const ref = /^ref: (\S+)$/.exec(head)?.[1];
  if (!ref) return /^[0-9a-f]{40,64}$/.test(head) ? head : null;
  // A linked worktree keeps its branches in the main repository (`commondir`).
  const common = read(joinPath(gitDir, "commondir"))?.trim();
  const refsDir = common ? resolvePath(gitDir, common) : gitDir;
  const loose = read(joinPath(refsDir, ref))?.trim();
  if (loose && /^[0-9a-f]{40,64}$/.test(loose)) return loose;
  for (const line of (read(joinPath(refsDir, "packed-refs")) ?? "").split("\n")) {
    const [sha, name] = line.trim().split(" ");
    if (name === ref && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
  }
  return null;
}

/**
 * A one-line warning when the bundle at `bundleFile`, built from commit
 * `builtFrom`, sits in a checkout now at another commit; null when it matches,
 * when it is not in a git checkout, or when either commit is unknown.
 *
 * @example
 * ```ts
 * staleBundleWarning(null, "/opt/policyd/dist/policy/policy.js"); // null: not a bundle
 * ```
 */
export function staleBundleWarning(
  builtFrom: string | null,
  bundleFile: string | undefined,
  read: ReadText = readTextOrNull,
): string | null {
  if (!builtFrom || !bundleFile) return null;
  const gitDir = gitDirAbove(bundleFile, read);
  const now = gitDir === null ? null : headCommit(gitDir, read);
  if (now === null || now === builtFrom) return null;
  return `policy: warning: this client was built from commit ${builtFrom.slice(0, 12)}; its ` +
    `checkout is now at ${now.slice(0, 12)}: run \`deno task install\` there to rebuild it\n`;
}
