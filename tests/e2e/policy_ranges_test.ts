/**
 * End-to-end: ranges judged as installed (issue 27 point 7). `policy check`,
 * `policy audit`, the hook and pre-commit send a range as written; the real
 * policyd judges it at the newest release PyPI lists that it admits (the
 * fake upstream serves PyPI's real pyyaml document: 3.13 is the newest
 * final release below 4), and at the bound when PyPI is down.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { claudePreToolUse } from "../helpers/claude_payload.ts";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import { startTestServer } from "../helpers/server.ts";
import { policy, tempGitRepo, writePolicyToml } from "../../cli/policy/_testing.ts";

Deno.test("a range is judged at the newest release it admits, else at its bound", async (t) => {
  const upstream = await startFakeUpstream();
  const server = await startTestServer({
    env: { OSV_API_URL: upstream.url, PYPI_URL: upstream.url },
  });
  const dir = await tempGitRepo({ "requirements.txt": "pyyaml<4\nrequests>=2.31\n" });
  const env = { POLICY_CACHE_DIR: join(dir, ".cache") };
  try {
    await writePolicyToml(dir, server.url, "auto_request_approval = false\n");
    await t.step("policy check 'pyyaml<4' is DENIED at 3.13", async () => {
      const ran = await policy(["check", "pyyaml<4"], { cwd: dir, env });
      assert.equal(ran.code, 2, ran.stderr);
      assert.match(ran.stdout, /pyyaml==3\.13 is DENIED \(DENIAL_VERSION_CONSTRAINT\)/);
    });
    await t.step("policy audit reports the release each range was judged at", async () => {
      const ran = await policy(["audit", "--format", "json"], { cwd: dir, env });
      assert.equal(ran.code, 2, ran.stderr);
      const rows = JSON.parse(ran.stdout).results;
      const pyyaml = rows.find((r: { package: string }) => r.package === "pyyaml");
      assert.equal(pyyaml.specifier, "<4");
      assert.equal(pyyaml.evaluated_version, "3.13");
      assert.equal(pyyaml.verdict, "DENIED");
      const requests = rows.find((r: { package: string }) => r.package === "requests");
      // The fixture's newest release is 2.18.4: nothing admits >=2.31, so it is judged at the bound.
      assert.equal(requests.evaluated_version, "2.31");
    });
    await t.step("the hook denies a requirements edit adding the range", async () => {
      const ran = await policy(["hook"], {
        cwd: dir,
        env: { ...env, CLAUDE_PROJECT_DIR: dir },
        stdin: claudePreToolUse(dir, "Write", {
          file_path: join(dir, "requirements-dev.txt"),
          content: "pyyaml<4\n",
        }),
      });
      const out = JSON.parse(ran.stdout);
      assert.equal(out.hookSpecificOutput.permissionDecision, "deny", ran.stderr);
      assert.match(out.hookSpecificOutput.permissionDecisionReason, /pyyaml==3\.13 is DENIED/);
    });
    await t.step("with PyPI down the range is judged at its bound", async () => {
      upstream.pypi.mode = "error500";
      const ran = await policy(["check", "pyyaml<5"], { cwd: dir, env });
      assert.equal(ran.code, 2, ran.stderr);
      assert.match(ran.stdout, /pyyaml==5 is DENIED \(DENIAL_VERSION_CONSTRAINT\)/);
    });
  } finally {
    await server.close();
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
  }
});
