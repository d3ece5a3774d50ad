/**
 * The `local_git` proposer: `local_file` plus one commit per write, made by
 * the system git with the bot identity, then a reload (status `applied`).
 *
 * @module
 */
import { basename, dirname, resolve } from "node:path";
import { registryPath } from "../config/settings.ts";
import { proposalBody, proposalSubject } from "./commit_message.ts";
import { botIdentityEnv, commitFile } from "./git.ts";
import { type AfterWrite, applyRuleToFile, removeRuleFromFile } from "./local_file.ts";
import { createKeyedMutex } from "./mutex.ts";
import type { Proposer, ProposerDeps } from "./types.ts";

/**
 * Creates the local-git proposer for `REGISTRY_PATH` (inside a git work tree).
 *
 * @example
 * ```ts
 * import { loadSettings } from "../config/settings.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * import type { LiveRegistry } from "../registry/live.ts";
 * import type { ProposalContext, ProposedRule } from "./types.ts";
 * declare const live: LiveRegistry;
 * declare const rule: ProposedRule;
 * declare const context: ProposalContext;
 * const settings = loadSettings({ REGISTRY_PATH: "registry/registry.yaml" });
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
    const message = `${proposalSubject(rule)}\n\n${proposalBody(rule, context)}\n`;
    const done = await commitFile({ cwd: dir, file: basename(file), message, env: identity });
    if (!done.ok) return done;
    return done.sha ? { ok: true, commit_sha: done.sha } : { ok: true };
  };

  return {
    name: "local_git",
    appliesAtOnce: true,
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
    withdraw: (name, context) =>
      mutex.run(
        path,
        () =>
          removeRuleFromFile(name, context, {
            backend: "local_git",
            path,
            reload: deps.reload,
            afterWrite: commit,
          }),
      ),
  };
}
