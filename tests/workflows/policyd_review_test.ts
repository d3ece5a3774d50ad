/**
 * The operator's review flow under the proposers a server may run: what
 * `POST /api/v1/registry/proposals` answers with `log_only` (nothing changes)
 * and with `github` (a pull request to merge). The `local_file` flow is in
 * policyd_api_test.ts.
 */
import { equal, match } from "node:assert/strict";
import { join } from "node:path";
import { AgentTestClient, stepBoundary, workflow } from "../../src/workflows/mod.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { startFakeGithub } from "../helpers/fake_github.ts";
import { createBareRemote } from "../helpers/git_fixture.ts";
import { workflowApp } from "../helpers/workflow_app.ts";
import { LOOKUPS, OPERATOR } from "../helpers/requires.ts";

const ISORT_RULE = {
  rule: { name: "isort", status: "approved", reason: "Import sorting used across teams" },
  context: { rationale: "Reviewed by the platform team" },
};

/** Sets git's author and committer dates for this process; returns the undo. */
function fixGitDates(date: string): () => void {
  const names = ["GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"];
  const before = names.map((name) => Deno.env.get(name));
  for (const name of names) Deno.env.set(name, date);
  return () =>
    names.forEach((name, i) => {
      const value = before[i];
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    });
}

Deno.test(
  "review with the log_only proposer",
  workflow(
    "Review a package with the log_only proposer",
    "As an operator, classify a package from the review queue on a server whose proposer only logs: the answer is `logged` and the registry does not change until someone edits it.",
    async () => {
      const app = await workflowApp("review-log-only", { env: { REGISTRY_PROPOSER: "log_only" } });
      try {
        const client = new AgentTestClient(app.built.app);
        await client.get("/api/v1/evaluate", { query: { package: "isort", project: "shop-api" } });
        const pending = await client.get("/api/v1/registry/pending", { query: { days: "30" } });
        const item = pending.json<{ items: Array<{ package: string }> }>().items[0];
        equal(item.package, "isort");
        const proposal = await client.post("/api/v1/registry/proposals", {
          json: { ...ISORT_RULE, rule: { ...ISORT_RULE.rule, name: item.package } },
        });
        equal(proposal.status, 200);
        equal(proposal.json<{ result: { status: string } }>().result.status, "logged");
        const after = await client.get("/api/v1/evaluate", {
          query: { package: "isort", project: "shop-api" },
        });
        equal(after.json<{ verdict: string }>().verdict, "PROVISIONALLY_ALLOWED");
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        OPERATOR,
        "REGISTRY_PROPOSER=log_only on the server (GET /api/v1/health shows `proposer`)",
        LOOKUPS,
      ],
    },
  ),
);

Deno.test(
  "review with the github proposer",
  workflow(
    "Review a package with the github proposer",
    "As an operator, classify a package on a server whose proposer opens GitHub pull requests: the answer is `opened` with the pull request's URL; the rule goes live when the pull request is merged (merge webhook).",
    async () => {
      // Fixed commit dates, so the branch's commit SHA is the same in every run.
      const restoreDates = fixGitDates("2026-11-21T09:00:00Z");
      const root = await Deno.makeTempDir({ prefix: "policyd-wf-github-" });
      const remote = await createBareRemote(root, {
        "registry/registry.yaml": await readExampleRegistry(),
      });
      const github = startFakeGithub("acme", "policy-registry");
      const app = await workflowApp("review-github", {
        env: {
          REGISTRY_PROPOSER: "github",
          REGISTRY_REPO_URL: remote.bare,
          REGISTRY_GITHUB_REPO: "acme/policy-registry",
          REGISTRY_REPO_WORKDIR: join(root, "workdir"),
          GITHUB_API_URL: github.url,
          GITHUB_TOKEN: "ghp_workflowDocsFakeToken0123456789",
          REGISTRY_BOT_AUTHOR_NAME: "policy-bot",
          REGISTRY_BOT_AUTHOR_EMAIL: "bot@policy.example",
        },
      });
      try {
        const client = new AgentTestClient(app.built.app);
        const health = await client.get("/api/v1/health");
        equal(health.json<{ proposer: string }>().proposer, "github");
        const proposal = await client.post("/api/v1/registry/proposals", { json: ISORT_RULE });
        equal(proposal.status, 200);
        const result = proposal.json<{ result: { status: string; url?: string } }>().result;
        equal(result.status, "opened");
        match(result.url ?? "", /\/pull\/1$/);
        await stepBoundary(
          "Git host",
          "A reviewer merges the pull request; the merge webhook then reloads the registry",
          () => equal(github.pulls.length, 1),
        );
        const still = await client.get("/api/v1/evaluate", {
          query: { package: "isort", project: "shop-api" },
        });
        equal(still.json<{ verdict: string }>().verdict, "PROVISIONALLY_ALLOWED");
      } finally {
        await app.close();
        await github.close();
        await Deno.remove(root, { recursive: true }).catch(() => {});
        restoreDates();
      }
    },
    {
      requires: [
        OPERATOR,
        "REGISTRY_PROPOSER=github with REGISTRY_REPO_URL (a git remote the server can push to), " +
        "REGISTRY_GITHUB_REPO and GITHUB_TOKEN on the server",
        "the GitHub REST API at GITHUB_API_URL (default https://api.github.com; offline, a " +
        "loopback server answering the pull-request routes, as this test does)",
        LOOKUPS,
      ],
    },
  ),
);
