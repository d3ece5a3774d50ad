/**
 * The `github` proposer: one branch `policy/approval/<name>` per package in
 * a shallow clone, a bot commit, a push, and a pull request opened (or
 * commented on, `amended`) through Octokit. The rule goes live only after
 * the merge webhook syncs the default branch onto `REGISTRY_PATH`.
 *
 * @module
 */
import type { Octokit } from "@octokit/rest";
import type { Logger } from "../log/logger.ts";
import { compileRegistry } from "../registry/compile.ts";
import { writeFileAtomic } from "../registry/files.ts";
import { proposalBody, proposalSubject } from "./commit_message.ts";
import { createOctokit, githubPulls } from "./github_pulls.ts";
import { redact } from "./git.ts";
import {
  isSafeBranch,
  openRepoClone,
  parseRepoSlug,
  type RepoSlug,
  secretsOf,
} from "./github_repo.ts";
import { readIfExists } from "./local_file.ts";
import { createKeyedMutex } from "./mutex.ts";
import { checkRule, describeErrors, upsertRule } from "./registry_edit.ts";
import type { ProposerOptions } from "./settings.ts";
import { type RemoveOutcome, removeRule } from "./rule_remove.ts";
import { normalizeName } from "../core/names.ts";
import type {
  ProposalContext,
  ProposalResult,
  ProposedRule,
  Proposer,
  SyncOutcome,
} from "./types.ts";

/** Prefix of proposal branches. */
export const BRANCH_PREFIX = "policy/approval/";

/** Prefix of branches that remove a rule (a revert of an addition). */
export const REMOVAL_PREFIX = "policy/removal/";

/** Dependencies of the github proposer. */
export interface GithubProposerDeps {
  /** The `proposers` area's options. */
  options: ProposerOptions;
  /** The live registry file the merge webhook syncs onto (`REGISTRY_PATH`). */
  registryPath: string;
  log: Logger;
  /** Override the API client (tests normally point `GITHUB_API_URL` at a fake instead). */
  octokit?: Octokit;
}

/**
 * Creates the github proposer.
 *
 * @example
 * ```ts
 * import { optionsFromEnv } from "../config/area.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * import { proposersArea } from "./settings.ts";
 * import type { ProposalContext } from "./types.ts";
 * declare const context: ProposalContext;
 * const options = optionsFromEnv(proposersArea, {
 *   REGISTRY_REPO_URL: "https://github.com/acme/registry.git",
 * });
 * const proposer = createGithubProposer({ options, registryPath: "registry/registry.yaml", log });
 * (await proposer.propose({ name: "left-pad", status: "approved" }, context)).status; // "opened"
 * ```
 */
export function createGithubProposer(deps: GithubProposerDeps): Proposer {
  const { options, log } = deps;
  const slug: RepoSlug | null = parseRepoSlug(
    options.githubRepo ?? undefined,
    options.repoUrl ?? undefined,
  );
  const octokit = deps.octokit ?? createOctokit(options, log);
  const clone = openRepoClone(options);
  const secrets = secretsOf(options);
  const mutex = createKeyedMutex();
  const repoName = slug ? `${slug.owner}/${slug.repo}` : "(unknown repository)";
  const { defaultBranch, openOrComment } = githubPulls(octokit, secrets, repoName);
  if (!slug) {
    log.warn("github proposer: cannot tell owner/repo; set REGISTRY_GITHUB_REPO=owner/name", {});
  }

  const failed = (detail: string, extra: Partial<ProposalResult> = {}): ProposalResult => ({
    backend: "github",
    status: "failed",
    ...extra,
    detail,
  });

  function proposeLocked(rule: ProposedRule, context: ProposalContext): Promise<ProposalResult> {
    const checked = checkRule(rule);
    if (!checked.ok) {
      return Promise.resolve(failed(`invalid rule: ${describeErrors(checked.errors)}`));
    }
    const name = checked.rule.name;
    return editLocked(name, BRANCH_PREFIX + name, (text) => upsertRule(text, rule), context);
  }

  /** A pull request that removes the rule (a revert of an addition, issue #31). */
  function withdrawLocked(rawName: string, context: ProposalContext): Promise<ProposalResult> {
    const name = normalizeName(rawName.trim());
    return editLocked(name, REMOVAL_PREFIX + name, (text) => removeRule(text, name), context);
  }

  async function editLocked(
    name: string,
    branch: string,
    editOf: (text: string | null) => RemoveOutcome,
    context: ProposalContext,
  ): Promise<ProposalResult> {
    if (!slug) {
      return failed("cannot tell the GitHub repository: set REGISTRY_GITHUB_REPO=owner/name");
    }

    const base = await defaultBranch(slug);
    if (!base.ok) return failed(base.detail);
    const ensured = await clone.ensure();
    if (!ensured.ok) return failed(ensured.detail);
    const exists = await clone.remoteHas(branch);
    if (!exists.ok) return failed(exists.detail);
    const checkedOut = await clone.checkout(branch, exists.value ? branch : base.value);
    if (!checkedOut.ok) return failed(checkedOut.detail);

    const edit = editOf(await readIfExists(clone.file));
    if (!edit.ok) {
      return failed(
        `the merged registry would be invalid: ${describeErrors(edit.errors)}; nothing pushed`,
      );
    }
    let commitSha: string | undefined;
    if (edit.changed) {
      await writeFileAtomic(clone.file, edit.text);
      const committed = await clone.commit(
        `${proposalSubject(edit.rule)}\n\n${proposalBody(edit.rule, context)}\n`,
      );
      if (!committed.ok) return failed(committed.detail, { branch });
      commitSha = committed.value;
      const pushed = await clone.push(branch);
      if (!pushed.ok) return failed(pushed.detail, { branch });
    } else if (!exists.value) {
      return {
        backend: "github",
        status: "applied",
        detail: `the default branch ${base.value} of ${repoName} already ${
          edit.rule.status === "removed" ? "has no rule" : "has this rule"
        } for ${name}; nothing to propose (the merge webhook brings it onto REGISTRY_PATH)`,
      };
    }
    const sha = commitSha ? { commit_sha: commitSha } : {};
    return await openOrComment(slug, branch, base.value, edit.rule, context, sha);
  }

  async function syncLocked(hint: { defaultBranch?: string }): Promise<SyncOutcome> {
    let base = hint.defaultBranch && isSafeBranch(hint.defaultBranch)
      ? hint.defaultBranch
      : undefined;
    if (!base) {
      if (!slug) {
        return { ok: false, detail: "cannot tell the GitHub repository: set REGISTRY_GITHUB_REPO" };
      }
      const fetched = await defaultBranch(slug);
      if (!fetched.ok) return fetched;
      base = fetched.value;
    }
    const ensured = await clone.ensure();
    if (!ensured.ok) return ensured;
    const checkedOut = await clone.checkout(base, base);
    if (!checkedOut.ok) return checkedOut;
    const text = await readIfExists(clone.file);
    if (text === null) {
      return { ok: false, detail: `${options.repoFile} is missing on ${base}` };
    }
    const compiled = await compileRegistry(text);
    if (!compiled.ok) {
      return {
        ok: false,
        detail: `the merged ${options.repoFile} on ${base} is invalid; kept the live registry`,
        errors: compiled.errors,
      };
    }
    const target = deps.registryPath;
    await writeFileAtomic(target, text);
    return { ok: true, detail: `copied ${options.repoFile} of ${base} to ${target}` };
  }

  const guard = <T>(what: string, task: () => Promise<T>, onError: (detail: string) => T) =>
    mutex.run("clone", task).catch((error) => {
      const detail = redact(`${what}: ${(error as Error).message}`, secrets);
      log.error("github proposer error", { detail });
      return onError(detail);
    });

  return {
    name: "github",
    appliesAtOnce: false,
    propose: (rule, context) =>
      guard(
        "github proposer",
        () => proposeLocked(rule, context),
        (detail) => ({ backend: "github", status: "failed", detail }),
      ),
    withdraw: (name, context) =>
      guard(
        "github proposer",
        () => withdrawLocked(name, context),
        (detail) => ({ backend: "github", status: "failed", detail }),
      ),
    syncMerged: (hint) =>
      guard("registry sync", () => syncLocked(hint), (detail) => ({ ok: false, detail })),
  };
}
