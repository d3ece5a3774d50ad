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
