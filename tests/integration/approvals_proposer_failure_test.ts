import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSettings } from "../../src/settings.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { buildServer } from "../../src/server.ts";
import { call, waitForProposal } from "../helpers/approvals.ts";
import { startTestServer } from "../helpers/server.ts";

const fixture = (file: string) => new URL(`../fixtures/proposers/${file}`, import.meta.url);

Deno.test("an approval request answers 202 while a module: proposer hangs", async () => {
  // A relative specifier resolves against the working directory (SPEC §15.8).
  const path = relative(Deno.cwd(), fileURLToPath(fixture("hanging_proposer.ts")));
  const server = await startTestServer({
    env: { REGISTRY_PROPOSER: `module:./${path}:HangingProposer` },
  });
  try {
    assert.equal((await call(server.url, "GET", "/api/v1/health")).body.proposer, "hanging");
    const res = await call(server.url, "POST", "/api/v1/approval-requests", {
      json: { package: "slow-pkg", rationale: "the proposer will never answer" },
    });
    assert.equal(res.status, 202);
    assert.equal(res.body.status, "PENDING_REVIEW");
    const stored = await call(server.url, "GET", `/api/v1/approval-requests/${res.body.id}`);
    assert.equal(stored.body.proposal_status, null);
    const listed = await call(server.url, "GET", "/api/v1/approval-requests");
    assert.deepEqual(listed.body.items.map((i: { package: string }) => i.package), ["slow-pkg"]);
  } finally {
    await server.close();
  }
});

Deno.test("an approval request answers 202 when a module: proposer throws, and the failure is recorded", async (t) => {
  for (const name of ["ThrowingProposer", "SyncThrowingProposer"]) {
    await t.step(name, async () => {
      const lines: string[] = [];
      const server = await startTestServer({
        env: { REGISTRY_PROPOSER: `module:${fixture("throwing_proposer.ts").href}:${name}` },
        logLines: lines,
      });
      try {
        const res = await call(server.url, "POST", "/api/v1/approval-requests", {
          json: { package: "flaky-pkg", rationale: "let us see" },
        });
        assert.equal(res.status, 202);
        const outcome = await waitForProposal(server.url, res.body.id);
        assert.equal(outcome.proposal_status, "failed");
        assert.match(outcome.proposal_detail, /the proposer threw: .*(always fails|synchronously)/);
        assert.ok(lines.some((l) => l.includes("proposer failed for an approval request")));
        const proposal = await call(server.url, "POST", "/api/v1/registry/proposals", {
          json: { rule: { name: "flaky-pkg", status: "approved" } },
        });
        assert.equal(proposal.status, 200);
        assert.equal(proposal.body.result.status, "failed");
      } finally {
        await server.close();
      }
    });
  }
});

Deno.test("a module: proposer that cannot be loaded stops the start-up with a clear message", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-module-" });
  try {
    const settings = loadSettings({
      POLICY_DB_PATH: join(dir, "policyd.db"),
      REGISTRY_PATH: join(dir, "registry.yaml"),
      REGISTRY_RELOAD_INTERVAL: "0",
      CVE_SCAN_SCHEDULE: "off",
      REDIS_URL: "none",
      REGISTRY_PROPOSER: `module:${fixture("throwing_proposer.ts").href}:Missing`,
    });
    await assert.rejects(
      () => buildServer(settings, { log: silentLogger, background: false }),
      (error: Error) => {
        assert.equal(error.name, "StartupError");
        assert.match(error.message, /cannot set up the proposer: .*no exported class Missing/);
        return true;
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
