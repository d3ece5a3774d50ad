/**
 * A line diff by real git (`git diff --no-index -U0`), for assertions that a
 * file changed only where it should: every other line byte-identical.
 *
 * @module
 */
import { join } from "node:path";

/** The hunks of a diff: removed and added lines of each (without the -/+ marker). */
export interface LineDiff {
  hunks: Array<{ removed: string[]; added: string[] }>;
}

/**
 * Diffs two texts line by line with git (no context lines; a missing final
 * newline counts as a change).
 *
 * @example
 * ```ts
 * const diff = await lineDiff("a\nb\n", "a\nx\nb\n");
 * diff.hunks; // [{ removed: [], added: ["x"] }]
 * ```
 */
export async function lineDiff(before: string, after: string): Promise<LineDiff> {
  const dir = await Deno.makeTempDir({ prefix: "policyd-diff-" });
  try {
    const a = join(dir, "before");
    const b = join(dir, "after");
    await Deno.writeTextFile(a, before);
    await Deno.writeTextFile(b, after);
    const out = await new Deno.Command("git", {
      args: ["diff", "--no-index", "--no-color", "--no-ext-diff", "-U0", "--", a, b],
      stdout: "piped",
      stderr: "piped",
    }).output();
    // git diff --no-index exits 1 when the files differ, 0 when equal.
    if (out.code > 1) throw new Error(new TextDecoder().decode(out.stderr));
    const hunks: LineDiff["hunks"] = [];
    for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
      if (line.startsWith("@@")) hunks.push({ removed: [], added: [] });
      else if (hunks.length && line.startsWith("-")) hunks.at(-1)!.removed.push(line.slice(1));
      else if (hunks.length && line.startsWith("+")) hunks.at(-1)!.added.push(line.slice(1));
    }
    return { hunks };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The hunks of a proposer's edit without the one that refreshed the registry's
 * `version:` line (src/proposers/registry_version.ts), after asserting that
 * hunk changed exactly that line: the old label plus `+` and 12 hex digits, in
 * the same quoting, its comment kept.
 *
 * @example
 * ```ts
 * const rest = withoutVersionHunk((await lineDiff(before, after)).hunks, "2026.11.21");
 * ```
 */
export function withoutVersionHunk(hunks: LineDiff["hunks"], label: string): LineDiff["hunks"] {
  const at = hunks.findIndex((h) => h.removed.some((line) => /^version:/.test(line)));
  if (at < 0) throw new Error(`no hunk changes the version line: ${JSON.stringify(hunks)}`);
  const { removed, added } = hunks[at];
  if (removed.length !== 1 || added.length !== 1) {
    throw new Error(`the version hunk changes more than one line: ${JSON.stringify(hunks[at])}`);
  }
  const [old, line] = [removed[0], added[0]];
  const labelAt = old.indexOf(label);
  const [before, after] = [old.slice(0, labelAt), old.slice(labelAt + label.length)];
  const value = line.slice(before.length, line.length - after.length);
  const fresh = value.startsWith(`${label}+`) && /^\+[0-9a-f]{12}$/.test(value.slice(label.length));
  if (labelAt < 0 || !line.startsWith(before) || !line.endsWith(after) || !fresh) {
    throw new Error(`the version line ${JSON.stringify(old)} became ${JSON.stringify(line)}`);
  }
  return hunks.filter((_, i) => i !== at);
}
