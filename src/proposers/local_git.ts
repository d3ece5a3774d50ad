/**
 * The `local_git` proposer: `local_file` plus one commit per write, made by
 * the system git with the bot identity, then a reload (status `applied`).
 *
 * @module
 */
import { basename, dirname, resolve } from "node:path";
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
 * import { optionsFromEnv } from "../config/area.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * import type { LiveRegistry } from "../registry/live.ts";
 * import { proposersArea } from "./settings.ts";
 * import type { ProposalContext, ProposedRule } from "./types.ts";
 * declare const live: LiveRegistry;
 * declare const rule: ProposedRule;
 * declare const context: ProposalContext;
 * const proposer = createLocalGitProposer({
 *   options: optionsFromEnv(proposersArea, {}),
 *   registryPath: "registry/registry.yaml",
 *   settings: {},
 *   log,
 *   reload: () => live.reload(),
 * });
 * (await proposer.propose(rule, context)).commit_sha; // the new commit
 * ```
 */
export function createLocalGitProposer(deps: ProposerDeps): Proposer {
  const path = resolve(deps.registryPath);
  const dir = dirname(path);
  const identity = botIdentityEnv(deps.options.bot.name, deps.options.bot.email);
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
