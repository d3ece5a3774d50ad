/**
 * End-to-end (issue #26 point 7): an agent's `pip install` of an unknown
 * package through the real `policy hook` files a request that changes
 * nothing: the registry file stays byte-identical and the request
 * `PENDING_REVIEW` until an operator approves it; then the file differs by
 * exactly the one rule and the request is `APPROVED`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { call } from "../helpers/approvals.ts";
import { lineDiff, withoutVersionHunk } from "../helpers/line_diff.ts";
import { startTestServer } from "../helpers/server.ts";
import { policy, tempGitRepo, writePolicyToml } from "../../cli/policy/_testing.ts";

function pipInstall(dir: string, command: string): string {
  return JSON.stringify({
    session_id: "review-e2e",
    transcript_path: join(dir, ".claude", "transcript.jsonl"),
    cwd: dir,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "install a dependency" },
    tool_use_id: "toolu_review",
  });
}

async function hook(dir: string, command: string) {
  const ran = await policy(["hook"], {
    cwd: dir,
    stdin: pipInstall(dir, command),
    env: { CLAUDE_PROJECT_DIR: dir },
  });
  assert.equal(ran.code, 0, ran.stderr);
  return ran.stdout.trim() ? JSON.parse(ran.stdout) : null;
}

Deno.test("an agent's pip install files a request that changes nothing until an operator approves", async () => {
  const server = await startTestServer();
  const dir = await tempGitRepo();
  try {
    await writePolicyToml(dir, server.url, "auto_request_approval = true\n");
    const before = await Deno.readTextFile(server.registryPath);

    const answer = await hook(dir, "pip install left-pad");
    const context: string = answer.hookSpecificOutput.additionalContext;
    assert.match(context, /left-pad is PROVISIONALLY_ALLOWED/);
    const id = Number(context.match(/filed for review \(id (\d+)\); not approved yet/)?.[1]);
    assert.ok(id > 0, context);
    assert.match(context, /an operator has to approve it/);

    // Give the background step every chance to run: it must not write.
    let stored = (await call(server.url, "GET", `/api/v1/approval-requests/${id}`)).body;
    for (let i = 0; i < 200 && stored.proposal_status === null; i++) {
      await new Promise((r) => setTimeout(r, 25));
      stored = (await call(server.url, "GET", `/api/v1/approval-requests/${id}`)).body;
    }
    assert.equal(stored.status, "PENDING_REVIEW");
    assert.equal(stored.proposal_status, "queued", stored.proposal_detail);
    assert.equal(stored.rationale.startsWith("Automatic request from the coding-agent hook"), true);
    assert.equal(await Deno.readTextFile(server.registryPath), before, "registry file unchanged");
    const check = await call(server.url, "GET", "/api/v1/evaluate?package=left-pad");
    assert.equal(check.body.verdict, "PROVISIONALLY_ALLOWED");
    assert.equal(check.body.registry_status, null);

    // The operator approves (the workshop's Approve sends exactly this).
    const approved = await call(server.url, "POST", "/api/v1/registry/proposals", {
      json: {
        rule: { name: "left-pad", status: "approved", reason: "reviewed" },
        context: { source: "operator" },
      },
    });
    assert.equal(approved.body.result.status, "applied", approved.body.result.detail);
    stored = (await call(server.url, "GET", `/api/v1/approval-requests/${id}`)).body;
    assert.equal(stored.status, "APPROVED");
    assert.ok(stored.decided_at);

    // The file differs by the one rule: every other line is byte-identical.
    const diff = await lineDiff(before, await Deno.readTextFile(server.registryPath));
    // Besides the rule, only the value of the registry's `version:` changes (a fresh one).
    assert.deepEqual(withoutVersionHunk(diff.hunks, "2026.11.21"), [{
      removed: [],
      added: ["  - name: left-pad", "    status: approved", "    reason: reviewed"],
    }]);

    const again = await hook(dir, "pip install left-pad");
    assert.equal(again, null, "an ALLOWED package passes silently");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
