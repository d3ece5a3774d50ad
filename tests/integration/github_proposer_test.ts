import assert from "node:assert/strict";
import { join } from "node:path";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { call, mergedPullRequest, signedDelivery, waitForProposal } from "../helpers/approvals.ts";
import { startFakeGithub } from "../helpers/fake_github.ts";
import { createBareRemote, git } from "../helpers/git_fixture.ts";
import { lineDiff } from "../helpers/line_diff.ts";
import { startTestServer } from "../helpers/server.ts";

const SECRET = "merge-webhook-secret";
const TOKEN = "ghp_fakeTokenForTests0123456789";
const BRANCH = "policy/approval/left-pad";

Deno.test("github proposer: PR, amend, push failure, then the merge webhook approves the requests", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "policyd-github-" });
  const example = await readExampleRegistry();
  const remote = await createBareRemote(root, { "registry/registry.yaml": example });
  const github = startFakeGithub("o", "r");
  const lines: string[] = [];
  const server = await startTestServer({
    registryYaml: example,
    logLines: lines,
    env: {
      REGISTRY_REPO_URL: remote.bare,
      REGISTRY_GITHUB_REPO: "o/r",
      REGISTRY_REPO_WORKDIR: join(root, "workdir"),
      GITHUB_API_URL: github.url,
      GITHUB_TOKEN: TOKEN,
      REGISTRY_WEBHOOK_SECRET: SECRET,
      REGISTRY_BOT_AUTHOR_NAME: "policy-bot",
      REGISTRY_BOT_AUTHOR_EMAIL: "bot@policy.test",
    },
  });
  const request = async (pkg: string, project: string, rationale: string) => {
    const res = await call(server.url, "POST", "/api/v1/approval-requests", {
      json: { package: pkg, rationale },
      headers: { "x-policy-project": project },
    });
    assert.equal(res.status, 202);
    return await waitForProposal(server.url, res.body.id);
  };
  try {
    assert.equal((await call(server.url, "GET", "/api/v1/health")).body.proposer, "github");

    await t.step("the first request opens a pull request from policy/approval/<name>", async () => {
      const outcome = await request("Left_Pad", "web", "pads report columns");
      assert.equal(outcome.proposal_status, "opened", outcome.proposal_detail);
      assert.match(outcome.proposal_detail, /goes live only after the pull request is merged/);
      assert.equal(github.pulls.length, 1);
      assert.equal(github.pulls[0].head, BRANCH);
      assert.equal(github.pulls[0].base, "main");
      assert.match(github.pulls[0].body, /pads report columns/);
      const proposed = await remote.show(BRANCH, "registry/registry.yaml");
      assert.match(proposed, /- name: left-pad\n\s+status: approved/);
      // The pull request's diff is the one rule: every other line of the example is kept.
      const hunks = (await lineDiff(example, proposed)).hunks;
      assert.equal(hunks.length, 1);
      assert.deepEqual(hunks[0].removed, []);
      assert.deepEqual(hunks[0].added.slice(0, 2), ["  - name: left-pad", "    status: approved"]);
      assert.match(hunks[0].added[2], /^ {4}reason: .*Requested by web: pads report columns/);
      const author = await git(["log", "-1", "--format=%an <%ae>|%s", BRANCH], remote.bare);
      assert.equal(author.trim(), "policy-bot <bot@policy.test>|policy: approved left-pad");
      assert.ok(github.calls.every((c) => c.authorization === `token ${TOKEN}`));
      const registry = await call(server.url, "GET", "/api/v1/registry");
      assert.equal(
        registry.body.packages.some((p: { name: string }) => p.name === "left-pad"),
        false,
      );
    });

    await t.step(
      "a second request from another project comments on the open pull request (amended)",
      async () => {
        const outcome = await request("left-pad", "api", "needed by the API too");
        assert.equal(outcome.proposal_status, "amended", outcome.proposal_detail);
        assert.equal(github.pulls.length, 1);
        assert.equal(github.pulls[0].comments.length, 1);
        assert.match(github.pulls[0].comments[0], /project: api/);
        const list = github.calls.find((c) => c.method === "GET" && c.path === "/repos/o/r/pulls");
        assert.equal(list?.query.head, `o:${BRANCH}`);
      },
    );

    await t.step("a rejected push answers failed with a useful detail", async () => {
      await remote.rejectPushes(true);
      try {
        const outcome = await request("tiny-helper", "web", "will not get through");
        assert.equal(outcome.proposal_status, "failed");
        assert.match(outcome.proposal_detail, /git push of policy\/approval\/tiny-helper failed/);
        assert.match(outcome.proposal_detail, /pushes are frozen for the test/);
        assert.equal(github.pulls.length, 1);
      } finally {
        await remote.rejectPushes(false);
      }
    });

    await t.step(
      "operator proposals through github say the rule goes live after the merge",
      async () => {
        const res = await call(server.url, "POST", "/api/v1/registry/proposals", {
          json: {
            rule: { name: "other-lib", status: "approved" },
            context: { rationale: "triage" },
          },
        });
        assert.equal(res.status, 200);
        assert.equal(res.body.result.backend, "github");
        assert.equal(res.body.result.status, "opened", res.body.result.detail);
        assert.equal(res.body.result.branch, "policy/approval/other-lib");
        assert.match(res.body.result.detail, /only after the pull request is merged/);
      },
    );

    await t.step(
      "the merge webhook pulls the merged YAML and the reload approves the pending requests",
      async () => {
        await remote.merge(BRANCH);
        const delivery = await signedDelivery(SECRET, "pull_request", mergedPullRequest(BRANCH));
        const res = await call(server.url, "POST", "/api/v1/registry/webhook", delivery);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.reload.ok, true);
        assert.equal(res.body.reload.added_packages, 1);
        assert.equal(res.body.reload.approved_requests, 2);
        const approved = await call(
          server.url,
          "GET",
          "/api/v1/approval-requests?project=*&status=APPROVED",
        );
        assert.deepEqual(
          approved.body.items.map((i: { package: string; count: number }) => [i.package, i.count]),
          [
            ["left-pad", 2],
          ],
        );
        const pending = await call(server.url, "GET", "/api/v1/approval-requests?project=*");
        assert.deepEqual(pending.body.items.map((i: { package: string }) => i.package), [
          "tiny-helper",
        ]);
        assert.match(await Deno.readTextFile(server.registryPath), /name: left-pad/);
        const evaluation = await call(server.url, "GET", "/api/v1/evaluate?package=left-pad");
        assert.equal(evaluation.body.registry_status, "approved");
      },
    );

    await t.step(
      "the change log names the merged pull request; a revert opens a removal pull request",
      async () => {
        const log = await call(server.url, "GET", "/api/v1/registry/changes?package=left-pad");
        const [merged, amended, opened] = log.body.items;
        assert.deepEqual(
          [merged.kind, merged.proposer, merged.url, merged.before, merged.after.status],
          ["reloaded", "github", github.pulls[0].html_url, null, "approved"],
        );
        assert.deepEqual([amended.kind, opened.kind], ["amended", "opened"]);
        const revert = await call(
          server.url,
          "POST",
          `/api/v1/registry/changes/${merged.id}/revert`,
        );
        assert.equal(revert.status, 200, JSON.stringify(revert.body));
        assert.equal(revert.body.result.status, "opened", revert.body.result.detail);
        assert.equal(revert.body.result.branch, "policy/removal/left-pad");
        // The removal's document is the one before the merge, byte for byte.
        assert.equal(
          await remote.show("policy/removal/left-pad", "registry/registry.yaml"),
          example,
        );
        const after = await call(server.url, "GET", "/api/v1/registry/changes?package=left-pad");
        assert.deepEqual(
          [after.body.items[0].kind, after.body.items[0].after, after.body.items[0].reverts],
          ["opened", null, merged.id],
        );
        // Nothing is live before the merge.
        const evaluation = await call(server.url, "GET", "/api/v1/evaluate?package=left-pad");
        assert.equal(evaluation.body.registry_status, "approved");
      },
    );

    await t.step(
      "a merge webhook whose pull fails answers 502 and keeps the registry",
      async () => {
        const before = await Deno.readFile(server.registryPath);
        await Deno.rename(remote.bare, remote.bare + ".gone");
        try {
          const delivery = await signedDelivery(
            SECRET,
            "pull_request",
            mergedPullRequest(BRANCH, 2),
          );
          const res = await call(server.url, "POST", "/api/v1/registry/webhook", delivery);
          assert.equal(res.status, 502);
          assert.deepEqual(await Deno.readFile(server.registryPath), before);
        } finally {
          await Deno.rename(remote.bare + ".gone", remote.bare);
        }
      },
    );

    await t.step("neither the token nor the webhook secret reach the logs", () => {
      assert.ok(lines.length > 0);
      assert.equal(lines.some((l) => l.includes(TOKEN) || l.includes(SECRET)), false);
    });
  } finally {
    await server.close();
    await github.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("github proposer: API failures and a missing repository become failed results, never 5xx", async () => {
  const root = await Deno.makeTempDir({ prefix: "policyd-github-" });
  const example = await readExampleRegistry();
  const remote = await createBareRemote(root, { "registry/registry.yaml": example });
  const github = startFakeGithub("o", "r");
  const server = await startTestServer({
    registryYaml: example,
    env: {
      REGISTRY_PROPOSER: "github",
      REGISTRY_REPO_URL: remote.bare,
      REGISTRY_GITHUB_REPO: "o/r",
      REGISTRY_REPO_WORKDIR: join(root, "workdir"),
      GITHUB_API_URL: github.url,
    },
  });
  try {
    github.failNext("pulls.create", 422);
    const res = await call(server.url, "POST", "/api/v1/registry/proposals", {
      json: { rule: { name: "left-pad", status: "approved" } },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.result.status, "failed");
    assert.match(res.body.result.detail, /pulls\.create failed \(HTTP 422\)/);
    assert.match(res.body.result.detail, /was pushed/);
    // Retrying reuses the pushed branch and opens the pull request.
    const retry = await call(server.url, "POST", "/api/v1/registry/proposals", {
      json: { rule: { name: "left-pad", status: "approved" } },
    });
    assert.equal(retry.body.result.status, "opened", retry.body.result.detail);
    github.failNext("repos.get", 500);
    const down = await call(server.url, "POST", "/api/v1/registry/proposals", {
      json: { rule: { name: "attrs", status: "banned" } },
    });
    assert.equal(down.status, 200);
    assert.equal(down.body.result.status, "failed");
    assert.match(down.body.result.detail, /repos\.get/);
  } finally {
    await server.close();
    await github.close();
    await Deno.remove(root, { recursive: true });
  }
});
