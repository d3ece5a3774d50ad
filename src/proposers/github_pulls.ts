/**
 * The GitHub side of the github proposer: Octokit with policyd's defaults,
 * the repository's default branch, and a pull request opened for a pushed
 * branch (or commented on when one is open already, `amended`).
 *
 * @module
 */
import { Octokit } from "@octokit/rest";
import type { Logger } from "../log/logger.ts";
import { proposalBody, proposalSubject } from "./commit_message.ts";
import { redact } from "./git.ts";
import { type RepoSlug, secretsOf } from "./github_repo.ts";
import type { ProposerOptions } from "./settings.ts";
import type { ProposalContext, ProposalResult } from "./types.ts";

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

/** The pull-request calls of the proposer, over one Octokit. */
export interface GithubPulls {
  /** The repository's default branch, or why it could not be read. */
  defaultBranch(s: RepoSlug): Promise<{ ok: true; value: string } | { ok: false; detail: string }>;
  /** Opens a pull request for `branch` onto `base`, or comments on the open one. */
  openOrComment(
    s: RepoSlug,
    branch: string,
    base: string,
    rule: { name: string; status: string },
    context: ProposalContext,
    sha: { commit_sha?: string },
  ): Promise<ProposalResult>;
}

/** The pull-request calls over `octokit`; errors are worded with `secrets` redacted. */
export function githubPulls(
  octokit: Octokit,
  secrets: Array<string | undefined>,
  repoName: string,
): GithubPulls {
  return {
    async defaultBranch(s) {
      try {
        const repo = await octokit.rest.repos.get({ ...s, ...apiRequest() });
        return { ok: true, value: repo.data.default_branch };
      } catch (error) {
        return { ok: false, detail: apiError(`repos.get ${repoName}`, error, secrets) };
      }
    },
    async openOrComment(s, branch, base, rule, context, sha) {
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
    },
  };
}
