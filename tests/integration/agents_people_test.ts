/**
 * The agents report tells people apart (issue #29, point 8): calls without
 * agent headers stay in the `(unknown agent)` bucket, broken down by source,
 * and those from `check`, `audit` and `precommit` are counted as people, in
 * the report JSON and on the agents dashboard.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";

async function evaluate(url: string, pkg: string, headers: Record<string, string>) {
  const res = await fetch(`${url}/api/v1/evaluate?package=${pkg}`, { headers });
  assert.equal(res.status, 200);
  await res.body?.cancel();
}

Deno.test("agents report: people within (unknown agent), by source, in the JSON and on the dashboard", async (t) => {
  const server = await startTestServer();
  try {
    await t.step("without agent headers there are no people yet", async () => {
      const report = await (await fetch(`${server.url}/api/v1/reports/agents`)).json();
      assert.deepEqual(report, { agents: [], people: { evaluations: 0, denials: 0, sources: {} } });
    });

    const agent = { "x-policy-agent-model": "claude", "x-policy-agent-version": "4.5" };
    await evaluate(server.url, "pycrypto", { ...agent, "x-policy-source": "hook" });
    await evaluate(server.url, "requests", { ...agent, "x-policy-source": "check" });
    await evaluate(server.url, "pycrypto", { "x-policy-source": "check" });
    await evaluate(server.url, "requests", { "x-policy-source": "check" });
    await evaluate(server.url, "requests", { "x-policy-source": "audit" });
    await evaluate(server.url, "pycrypto", { "x-policy-source": "precommit" });
    await evaluate(server.url, "requests", {}); // a bare API call: not known to be a person

    await t.step("the report JSON keeps the bucket and breaks it down by source", async () => {
      const report = await (await fetch(`${server.url}/api/v1/reports/agents`)).json();
      const byModel = Object.fromEntries(
        report.agents.map((a: { agent_model: string }) => [a.agent_model, a]),
      );
      assert.deepEqual(Object.keys(byModel).sort(), ["(unknown agent)", "claude"]);
      assert.equal(byModel["(unknown agent)"].evaluations, 5);
      assert.deepEqual(byModel["(unknown agent)"].sources, {
        api: 1,
        audit: 1,
        check: 2,
        precommit: 1,
      });
      assert.deepEqual(byModel.claude.sources, { check: 1, hook: 1 });
      assert.deepEqual(report.people, {
        evaluations: 4,
        denials: 2,
        sources: { audit: 1, check: 2, precommit: 1 },
      });
    });

    await t.step("the agents dashboard shows them as people", async () => {
      const html = await (await fetch(`${server.url}/dashboard/agents`)).text();
      assert.match(html, /5 evaluations without an agent model/);
      const people = html.slice(html.indexOf('data-testid="people-sources"'));
      assert.match(people, /<td>policy check<\/td><td class="num">2<\/td>/);
      assert.match(people, /<td>git commits \(pre-commit hook\)<\/td><td class="num">1<\/td>/);
    });
  } finally {
    await server.close();
  }
});
