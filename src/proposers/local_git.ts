/**
 * The `local_git` proposer: `local_file` plus one commit per write, made by
 * the system git with the bot identity, then a reload (status `applied`).
 *
 * @module
 */
import { basename, dirname, resolve } from "node:path";
import { registryPath } from "../config/settings.ts";
import { proposalBody, proposalSubject } from "./commit_message.ts";
import { botIdentityEnv, gitDetail, runGit } from "./git.ts";
import { type AfterWrite, applyRuleToFile } from "./local_file.ts";
import { createKeyedMutex } from "./mutex.ts";
import type { Proposer, ProposerDeps } from "./types.ts";

/**
 * Creates the local-git proposer for `REGISTRY_PATH` (inside a git work tree).
 *
 * @example
 * ```ts
 * const proposer = createLocalGitProposer({ settings, log, reload: () => live.reload() });
 * (await proposer.propose(rule, context)).commit_sha; // the new commit
 * ```
 */
export function createLocalGitProposer(deps: ProposerDeps): Proposer {
  const path = resolve(registryPath(deps.settings));
  const dir = dirname(path);
  const identity = botIdentityEnv(
    deps.settings.REGISTRY_BOT_AUTHOR_NAME,
    deps.settings.REGISTRY_BOT_AUTHOR_EMAIL,
  );
  const mutex = createKeyedMutex();

  const commit: AfterWrite = async (file, rule, context) => {
    const add = await runGit(["add", "--", basename(file)], { cwd: dir });
    if (!add.ok) return { ok: false, detail: `git add failed: ${gitDetail(add)}` };
    const message = `${proposalSubject(rule)}\n\n${proposalBody(rule, context)}\n`;
    // `--only` semantics (paths given): other staged changes in the tree are left alone.
    const committed = await runGit(
      [
        "-c",
        "commit.gpgsign=false",
        "commit",
        "--no-verify",
        "--quiet",
        "-m",
        message,
        "--",
        basename(file),
      ],
      { cwd: dir, env: identity },
    );
    if (!committed.ok) {
      await runGit(["reset", "--quiet", "--", basename(file)], { cwd: dir });
      return { ok: false, detail: `git commit failed: ${gitDetail(committed)}` };
    }
    const head = await runGit(["rev-parse", "HEAD"], { cwd: dir });
    return head.ok ? { ok: true, commit_sha: head.stdout.trim() } : { ok: true };
  };

  return {
    name: "local_git",
    propose: (rule, context) =>
      mutex.run(
        path,
        () =>
          applyRuleToFile(rule, context, {
            backend: "local_git",
            path,
            reload: deps.reload,
            afterWrite: commit,
          }),
      ),
  };
}
