/**
 * Minimal adapter over the system `git` used by precommit and installers.
 *
 * @module
 */

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

/** Staged content of `./pyproject.toml` relative to `cwd`, or null when not in the index. */
export async function stagedFile(cwd: string, name: string): Promise<string | null> {
  const listed = await git(["ls-files", "--cached", "--", name], cwd);
  if (listed.code !== 0 || listed.stdout.trim() === "") return null;
  const shown = await git(["show", `:./${name}`], cwd);
  return shown.code === 0 ? shown.stdout : null;
}
