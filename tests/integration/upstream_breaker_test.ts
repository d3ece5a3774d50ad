/**
 * Offline is fast (issue #29, point 4): after an upstream fails, its circuit
 * breaker opens, the next evaluations skip it at once (data `unavailable`)
 * and `/health` shows the breaker open with its retry time; once that time
 * passes, one probe goes out and a success closes the breaker.
 */
import assert from "node:assert/strict";
import { deadServerUrl } from "../../cli/policy/_testing.ts";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import { startTestServer } from "../helpers/server.ts";

interface Evaluation {
  verdict: string;
  data: { vulnerabilities: { status: string }; license: { status: string } };
}

async function evaluate(url: string, pkg: string): Promise<{ body: Evaluation; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${url}/api/v1/evaluate?package=${pkg}`);
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return { body, ms: performance.now() - started };
}

Deno.test("upstreams that refuse connections: the second unknown package is decided in under 100 ms and health shows the breakers open", async () => {
  const dead = deadServerUrl();
  const server = await startTestServer({ env: { OSV_API_URL: dead, PYPI_URL: dead } });
  try {
    const first = await evaluate(server.url, "first-unknown-package");
    assert.equal(first.body.data.vulnerabilities.status, "unavailable");
    const health = await (await fetch(`${server.url}/api/v1/health`)).json();
    for (const name of ["osv", "pypi"]) {
      const state = health.upstreams[name];
      assert.equal(state.status, "failing", name);
      assert.equal(state.breaker, "open", name);
      assert.ok(Date.parse(state.retry_at) > Date.now(), `${name} retries later`);
    }
    const second = await evaluate(server.url, "second-unknown-package");
    assert.ok(second.ms < 100, `second evaluation took ${second.ms.toFixed(0)} ms`);
    assert.equal(second.body.data.vulnerabilities.status, "unavailable");
    assert.equal(second.body.data.license.status, "unavailable");
  } finally {
    await server.close();
  }
});

Deno.test("an upstream that hangs costs one time-out, not one per package; a probe after the retry time closes the breaker", async () => {
  const upstream = await startFakeUpstream();
  let now = Date.now();
  const server = await startTestServer({
    env: { OSV_API_URL: upstream.url, PYPI_URL: upstream.url, LOOKUP_TIMEOUT_MS: "500" },
    build: { now: () => new Date(now) },
  });
  try {
    upstream.osv.mode = "hang";
    const first = await evaluate(server.url, "hang-one");
    assert.ok(first.ms >= 450, "the first lookup waits for its time-out");
    const queries = upstream.calls["osv.query"];
    const second = await evaluate(server.url, "hang-two");
    assert.ok(second.ms < 100, `second evaluation took ${second.ms.toFixed(0)} ms`);
    assert.equal(second.body.data.vulnerabilities.status, "unavailable");
    assert.equal(second.body.data.license.status, "fresh", "PyPI is unaffected");
    assert.equal(upstream.calls["osv.query"], queries, "OSV was not called while open");

    upstream.osv.mode = "ok";
    now += 31_000; // past the retry interval
    const probe = await evaluate(server.url, "requests");
    assert.equal(probe.body.data.vulnerabilities.status, "fresh");
    const health = await (await fetch(`${server.url}/api/v1/health`)).json();
    assert.deepEqual([health.upstreams.osv.breaker, health.upstreams.osv.retry_at], [
      "closed",
      null,
    ]);
  } finally {
    await server.close();
    await upstream.close();
  }
});
