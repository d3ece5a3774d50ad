/**
 * Running the system `git` with `Deno.Command`: no prompts, C locale, a
 * time limit, and secrets scrubbed from whatever it prints.
 *
 * @module
 */

/** Result of one git invocation. */
export interface GitResult {
  ok: boolean;
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link runGit}. */
export interface GitOptions {
  /** Working directory (`git -C`). */
  cwd?: string;
  /** Extra environment (identity, credentials via GIT_CONFIG_*). */
  env?: Record<string, string>;
  /** Milliseconds before git is killed (default 60 s). */
  timeoutMs?: number;
}

const decoder = new TextDecoder();

/**
 * Runs git and collects its output; never throws for a non-zero exit.
 *
 * @example
 * ```ts
 * const head = await runGit(["rev-parse", "HEAD"], { cwd: "/repo" });
 * head.ok && head.stdout.trim();
 * ```
 */
export async function runGit(args: string[], options: GitOptions = {}): Promise<GitResult> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? 60_000);
  try {
    const output = await new Deno.Command("git", {
      args: options.cwd ? ["-C", options.cwd, ...args] : args,
      env: { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0", ...options.env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal,
    }).output();
    return {
      ok: output.success,
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: signal.aborted ? "git timed out" : decoder.decode(output.stderr),
    };
  } catch (error) {
    const message = error instanceof Deno.errors.NotFound
      ? "git is not installed"
      : (error as Error).message;
    return { ok: false, code: -1, stdout: "", stderr: message };
  }
}

/** The environment that makes git commit as the bot. */
export function botIdentityEnv(name: string, email: string): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
  };
}

/** Removes secrets from text meant for logs or results (the one helper in `src/log/redact.ts`). */
export { redact } from "../log/redact.ts";
import { redact } from "../log/redact.ts";

/** The last meaningful lines of git's stderr, for a one-line detail. */
export function gitDetail(
  result: GitResult,
  secrets: ReadonlyArray<string | undefined> = [],
): string {
  const lines = (result.stderr || result.stdout).split("\n").map((l) => l.trim()).filter(Boolean);
  const text = lines.slice(-4).join(" | ") || `exit code ${result.code}`;
  return redact(text, secrets).slice(0, 600);
}

/** Outcome of {@link commitFile}. */
export type CommitOutcome = { ok: true; sha: string | null } | { ok: false; detail: string };

/**
 * Stages one file and commits only it (other staged changes stay staged),
 * without hooks or signing; on a failed commit the file is unstaged again.
 *
 * @example
 * ```ts ignore
 * // needs a git work tree with a changed registry.yaml
 * const done = await commitFile({ cwd: "/repo", file: "registry.yaml", message: "Add left-pad" });
 * ```
 */
export async function commitFile(options: {
  cwd: string;
  /** Path relative to `cwd`. */
  file: string;
  message: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  secrets?: ReadonlyArray<string | undefined>;
}): Promise<CommitOutcome> {
  const { cwd, file, env, timeoutMs, secrets } = options;
  const run = (args: string[]) => runGit(args, { cwd, env, timeoutMs });
  const added = await run(["add", "--", file]);
  if (!added.ok) return { ok: false, detail: `git add failed: ${gitDetail(added, secrets)}` };
  const committed = await run(
    [
      "-c",
      "commit.gpgsign=false",
      "commit",
      "--no-verify",
      "--quiet",
      "-m",
      options.message,
      "--",
      file,
    ],
  );
  if (!committed.ok) {
    await run(["reset", "--quiet", "--", file]);
    return { ok: false, detail: `git commit failed: ${gitDetail(committed, secrets)}` };
  }
  const head = await run(["rev-parse", "HEAD"]);
  return { ok: true, sha: head.ok ? head.stdout.trim() : null };
}

/** Whether a directory lies inside a git work tree. */
export async function isInsideWorkTree(dir: string): Promise<boolean> {
  const result = await runGit(["rev-parse", "--is-inside-work-tree"], {
    cwd: dir,
    timeoutMs: 10_000,
  });
  return result.ok && result.stdout.trim() === "true";
}
