/**
 * Real git repositories for proposer tests: a bare "remote" seeded with a
 * registry file on `main`, and helpers to run git and merge branches the
 * way a reviewer would.
 *
 * @module
 */
import { join } from "node:path";

/** Runs git and throws with its stderr when it fails. */
export async function git(args: string[], cwd?: string): Promise<string> {
  const output = await new Deno.Command("git", {
    args: cwd ? ["-C", cwd, ...args] : args,
    env: {
      GIT_TERMINAL_PROMPT: "0",
      GIT_AUTHOR_NAME: "Test Human",
      GIT_AUTHOR_EMAIL: "human@example.test",
      GIT_COMMITTER_NAME: "Test Human",
      GIT_COMMITTER_EMAIL: "human@example.test",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  if (!output.success) {
    throw new Error(`git ${args.join(" ")} failed: ${new TextDecoder().decode(output.stderr)}`);
  }
  return text;
}

/** Creates a work tree with one commit holding `files` (relative path → content). */
export async function initWorkTree(dir: string, files: Record<string, string>): Promise<void> {
  await git(["init", "--quiet", "-b", "main", dir]);
  for (const [path, content] of Object.entries(files)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, path), content);
  }
  await git(["add", "-A"], dir);
  await git(["-c", "commit.gpgsign=false", "commit", "--quiet", "-m", "seed"], dir);
}

/** A bare remote and a scratch clone for playing the reviewer. */
export interface BareRemote {
  /** Path of the bare repository (usable as a git URL). */
  bare: string;
  /** Merges `branch` into main on the remote (like pressing "Merge"). */
  merge(branch: string): Promise<void>;
  /** Reads a file on a branch of the remote. */
  show(branch: string, path: string): Promise<string>;
  /** Makes every push fail with a pre-receive hook (or stop failing). */
  rejectPushes(reject: boolean): Promise<void>;
  /** Commits a file change directly on main of the remote (someone else's push). */
  commitOnMain(path: string, content: string): Promise<void>;
}

/** Creates a bare repository under `root` whose main holds `files`. */
export async function createBareRemote(
  root: string,
  files: Record<string, string>,
): Promise<BareRemote> {
  const bare = join(root, "remote.git");
  const seed = join(root, "seed");
  const scratch = join(root, "reviewer");
  await git(["init", "--quiet", "--bare", "-b", "main", bare]);
  await initWorkTree(seed, files);
  await git(["push", "--quiet", bare, "main:main"], seed);
  await git(["clone", "--quiet", bare, scratch]);
  const hook = join(bare, "hooks", "pre-receive");
  return {
    bare,
    async merge(branch) {
      await git(["fetch", "--quiet", "origin"], scratch);
      await git(["checkout", "--quiet", "-B", "main", "origin/main"], scratch);
      await git([
        "-c",
        "commit.gpgsign=false",
        "merge",
        "--quiet",
        "--no-ff",
        "-m",
        `Merge ${branch}`,
        `origin/${branch}`,
      ], scratch);
      await git(["push", "--quiet", "origin", "main:main"], scratch);
    },
    show: (branch, path) => git(["show", `${branch}:${path}`], bare),
    async commitOnMain(path, content) {
      await git(["fetch", "--quiet", "origin"], scratch);
      await git(["checkout", "--quiet", "-B", "main", "origin/main"], scratch);
      await Deno.mkdir(join(scratch, path, ".."), { recursive: true });
      await Deno.writeTextFile(join(scratch, path), content);
      await git(["add", "--", path], scratch);
      await git(["-c", "commit.gpgsign=false", "commit", "--quiet", "-m", `edit ${path}`], scratch);
      await git(["push", "--quiet", "origin", "main:main"], scratch);
    },
    async rejectPushes(reject) {
      if (reject) {
        await Deno.writeTextFile(
          hook,
          "#!/bin/sh\necho 'pushes are frozen for the test' >&2\nexit 1\n",
        );
        await Deno.chmod(hook, 0o755);
      } else {
        await Deno.remove(hook).catch(() => {});
      }
    },
  };
}
