/**
 * The `github` proposer: one branch `policy/approval/<name>` per package in
 * a shallow clone, a bot commit, a push, and a pull request opened (or
 * commented on, `amended`) through Octokit. The rule goes live only after
 * the merge webhook syncs the default branch onto `REGISTRY_PATH`.
 *
 * @module
 */
import { Octokit } from "@octokit/rest";
import type { Logger } from "../log/logger.ts";
import { compileRegistry } from "../registry/compile.ts";
import { writeFileAtomic } from "../registry/files.ts";
import { proposalBody, proposalSubject } from "./commit_message.ts";
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

/** Octokit with policyd's defaults: base URL from the options, quiet request log. */
export function createOctokit(options: ProposerOptions, log: Logger): Octokit {
  const secrets = secretsOf(options);
  const quiet = (message: string) =>
    log.debug("octokit", { message: redact(String(message), secrets) });
  return new Octokit({
    auth: options.githubToken ?? undefined,
    baseUrl: options.githubApiUrl.replace(/\/+$/, ""),
    userAgent: "policyd",
    log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  });
}

function apiError(what: string, error: unknown, secrets: Array<string | undefined>): string {
  const status = (error as { status?: number }).status;
  const message = (error as Error).message ?? String(error);
  return redact(
    `GitHub API ${what} failed${status ? ` (HTTP ${status})` : ""}: ${message}`,
    secrets,
  ).slice(0, 600);
}

/** A short signal so one hung API call cannot hold the clone forever. */
const apiRequest = () => ({ request: { signal: AbortSignal.timeout(30_000) } });

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
  if (!slug) {
    log.warn("github proposer: cannot tell owner/repo; set REGISTRY_GITHUB_REPO=owner/name", {});
  }

  async function defaultBranch(
    s: RepoSlug,
  ): Promise<{ ok: true; value: string } | { ok: false; detail: string }> {
    try {
      const repo = await octokit.rest.repos.get({ ...s, ...apiRequest() });
      return { ok: true, value: repo.data.default_branch };
    } catch (error) {
      return { ok: false, detail: apiError(`repos.get ${repoName}`, error, secrets) };
    }
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

  async function openOrComment(
    s: RepoSlug,
    branch: string,
    base: string,
    rule: { name: string; status: string },
    context: ProposalContext,
    sha: { commit_sha?: string },
  ): Promise<ProposalResult> {
    const pending = "the rule goes live only after the pull request is merged (merge webhook)";
    /** The outcome for this branch and commit; `url` is the pull request's. */
    const outcome = (
      status: ProposalResult["status"],
      detail: string,
      url?: string,
    ): ProposalResult => ({
      backend: "github",
      status,
      ...(url === undefined ? {} : { url }),
      branch,
      ...sha,
      detail,
    });
    let open;
    try {
      open = await octokit.rest.pulls.list({
        ...s,
        head: `${s.owner}:${branch}`,
        state: "open",
        ...apiRequest(),
      });
    } catch (error) {
      return outcome("failed", apiError("pulls.list", error, secrets));
    }
    const existing = open.data[0];
    if (existing) {
      try {
        await octokit.rest.issues.createComment({
          ...s,
          issue_number: existing.number,
          body: `Another request for this rule.\n\n${proposalBody(rule, context)}`,
          ...apiRequest(),
        });
      } catch (error) {
        const detail = apiError("issues.createComment", error, secrets);
        return outcome("failed", detail, existing.html_url);
      }
      const detail = `commented on open pull request #${existing.number}; ${pending}`;
      return outcome("amended", detail, existing.html_url);
    }
    try {
      const created = await octokit.rest.pulls.create({
        ...s,
        title: proposalSubject(rule),
        head: branch,
        base,
        body: proposalBody(rule, context),
        ...apiRequest(),
      });
      const detail = `opened pull request #${created.data.number}; ${pending}`;
      return outcome("opened", detail, created.data.html_url);
    } catch (error) {
      const detail = `${apiError("pulls.create", error, secrets)}; branch ${branch} was pushed`;
      return outcome("failed", detail);
    }
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
