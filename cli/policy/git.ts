/**
 * Minimal adapter over the system `git` used by precommit and installers.
 *
 * @module
 */

import { ClientError } from "./exit_codes.ts";

/** Result of one git invocation. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `git args…` in `cwd`; a missing git binary yields code 127. */
export async function git(args: string[], cwd: string): Promise<GitResult> {
  try {
    const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
      .output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  } catch (error) {
    return { code: 127, stdout: "", stderr: String((error as Error).message) };
  }
}

/** Absolute path of the hooks directory of the repository at `cwd`, or null. */
export async function gitHooksDir(cwd: string): Promise<string | null> {
  const res = await git(["rev-parse", "--path-format=absolute", "--git-path", "hooks"], cwd);
  return res.code === 0 ? res.stdout.trim() : null;
}

/** Text of `path` (relative to `cwd`) at `rev` (`""` for the index), or null when absent. */
export async function fileAt(cwd: string, rev: string, path: string): Promise<string | null> {
  const shown = await git(["show", `${rev}:./${path}`], cwd);
  return shown.code === 0 ? shown.stdout : null;
}

/**
 * Paths (relative to `cwd`, under it) of the files the index adds, copies,
 * modifies or renames against HEAD; with `all`, every file in the index.
 * Throws a `ClientError` when git cannot say (not a repository, git missing):
 * a pre-commit check that cannot read the change never passes it.
 */
export async function stagedPaths(cwd: string, all: boolean): Promise<string[]> {
  const res = all
    ? await git(["ls-files", "--cached", "-z"], cwd)
    : await git(["diff", "--cached", "--name-only", "--relative", "--diff-filter=ACMR", "-z"], cwd);
  if (res.code !== 0) {
    const why = res.stderr.trim().split("\n")[0] || `exit ${res.code}`;
    throw new ClientError("no_input", `cannot read the staged changes (git: ${why})`);
  }
  return res.stdout.split("\0").filter(Boolean);
}
