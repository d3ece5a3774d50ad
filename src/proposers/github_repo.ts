/**
 * The github proposer's local clone in `REGISTRY_REPO_WORKDIR`: shallow
 * clone, fetch one branch, check it out, commit as the bot, push. Every
 * git failure becomes a value with a redacted one-line detail.
 *
 * @module
 */
import { isAbsolute, join, normalize, relative, resolve } from "node:path";
import type { ProposerOptions } from "./settings.ts";
import { botIdentityEnv, commitFile, gitDetail, redact, runGit } from "./git.ts";

/** A git step that failed, described for a proposal detail. */
export type Step<T = void> = { ok: true; value: T } | { ok: false; detail: string };

/** `owner/repo` of the GitHub API (SPEC §15.9, §15.21). */
export interface RepoSlug {
  owner: string;
  repo: string;
}

/**
 * The repository for the GitHub API: `REGISTRY_GITHUB_REPO` wins, else it is
 * read from `REGISTRY_REPO_URL` (`https://host/o/r(.git)`, `git@host:o/r.git`,
 * `ssh://git@host/o/r.git`). Null when neither gives one (a local path).
 *
 * @example
 * ```ts
 * parseRepoSlug(undefined, "git@github.com:acme/policy.git"); // { owner: "acme", repo: "policy" }
 * ```
 */
export function parseRepoSlug(
  explicit: string | undefined,
  url: string | undefined,
): RepoSlug | null {
  const fromPair = (text: string) => {
    const match = /^([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(text);
    return match ? { owner: match[1], repo: match[2] } : null;
  };
  if (explicit) return fromPair(explicit);
  if (!url) return null;
  const scp = /^[\w.-]+@[\w.-]+:(?!\/)(.+)$/.exec(url);
  if (scp) return fromPair(scp[1]);
  const web = /^(?:https?|ssh|git):\/\/[^/]+\/(.+)$/.exec(url);
  return web ? fromPair(web[1]) : null;
}

/** Branch names we accept from outside (webhook payloads). */
export function isSafeBranch(name: string): boolean {
  return /^[\w][\w./-]{0,200}$/.test(name) && !name.includes("..") && !name.endsWith(".lock");
}

/** The clone and the git operations the github proposer and the merge webhook need. */
export interface RepoClone {
  readonly dir: string;
  /** Absolute path of `REGISTRY_REPO_FILE` inside the clone. */
  readonly file: string;
  /** Clones when the work directory has no clone yet. */
  ensure(): Promise<Step>;
  /** Whether the branch exists on the remote. */
  remoteHas(branch: string): Promise<Step<boolean>>;
  /** Fetches `start` from origin and force-checks-out `branch` at it, discarding local edits. */
  checkout(branch: string, start: string): Promise<Step>;
  /** Commits the registry file as the bot; value is the new HEAD sha. */
  commit(message: string): Promise<Step<string>>;
  /** Pushes HEAD to the remote branch. */
  push(branch: string): Promise<Step>;
}

/** Secrets that must never reach a detail or a log line. */
export function secretsOf(options: ProposerOptions): Array<string | undefined> {
  return [options.githubToken ?? undefined, options.webhookSecret ?? undefined];
}

/** Credentials for https remotes, passed through the environment (never argv, never the URL). */
function credentialEnv(options: ProposerOptions): Record<string, string> {
  const url = options.repoUrl ?? "";
  if (!options.githubToken || !/^https:\/\//i.test(url)) return {};
  const basic = btoa(`x-access-token:${options.githubToken}`);
  return {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "http.extraHeader",
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
  };
}

/** Opens (lazily) the clone the proposer options describe. */
export function openRepoClone(options: ProposerOptions): RepoClone {
  const dir = resolve(options.repoWorkdir);
  const file = resolve(dir, normalize(options.repoFile));
  const url = options.repoUrl ?? "";
  const secrets = secretsOf(options);
  const env = {
    ...credentialEnv(options),
    ...botIdentityEnv(options.bot.name, options.bot.email),
  };
  const git = (args: string[], cwd: string | null = dir) =>
    runGit(args, { cwd: cwd ?? undefined, env, timeoutMs: 120_000 });
  const fail = (what: string, result: Awaited<ReturnType<typeof runGit>>) => ({
    ok: false as const,
    detail: `${what} failed: ${gitDetail(result, secrets)}`,
  });
  const relFile = relative(dir, file);
  const done = { ok: true as const, value: undefined };

  return {
    dir,
    file,
    async ensure() {
      if (!url) return { ok: false, detail: "REGISTRY_REPO_URL is not set" };
      if (relFile.startsWith("..") || isAbsolute(relFile)) {
        return {
          ok: false,
          detail: `REGISTRY_REPO_FILE ${options.repoFile} leaves the clone`,
        };
      }
      const hasGit = await Deno.stat(join(dir, ".git")).then(() => true, () => false);
      if (hasGit) {
        const remote = await git(["remote", "set-url", "origin", url]);
        return remote.ok ? done : fail("git remote set-url", remote);
      }
      const entries = await Array.fromAsync(Deno.readDir(dir)).catch(() => []);
      if (entries.length > 0) {
        return {
          ok: false,
          detail: `REGISTRY_REPO_WORKDIR ${dir} is not empty and not a git clone`,
        };
      }
      await Deno.mkdir(dir, { recursive: true });
      const cloned = await git(
        ["clone", "--quiet", "--depth", "1", "--no-tags", "--", url, dir],
        null,
      );
      return cloned.ok ? done : fail(`git clone of ${redact(url, secrets)}`, cloned);
    },
    async remoteHas(branch) {
      const listed = await git(["ls-remote", "--heads", "origin", `refs/heads/${branch}`]);
      return listed.ok
        ? { ok: true, value: listed.stdout.trim() !== "" }
        : fail("git ls-remote", listed);
    },
    async checkout(branch, start) {
      const fetched = await git([
        "fetch",
        "--quiet",
        "--depth",
        "1",
        "--no-tags",
        "origin",
        `+refs/heads/${start}:refs/remotes/origin/${start}`,
      ]);
      if (!fetched.ok) return fail(`git fetch of ${start}`, fetched);
      const switched = await git([
        "checkout",
        "--quiet",
        "--force",
        "-B",
        branch,
        `refs/remotes/origin/${start}`,
      ]);
      if (!switched.ok) return fail(`git checkout of ${branch}`, switched);
      const cleaned = await git(["clean", "-fdq"]);
      return cleaned.ok ? done : fail("git clean", cleaned);
    },
    async commit(message) {
      const done = await commitFile({
        cwd: dir,
        file: relFile,
        message,
        env,
        timeoutMs: 120_000,
        secrets,
      });
      return done.ok ? { ok: true, value: done.sha ?? "" } : done;
    },
    async push(branch) {
      const pushed = await git(["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`]);
      return pushed.ok ? done : fail(`git push of ${branch}`, pushed);
    },
  };
}
