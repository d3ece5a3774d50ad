import { equal } from "node:assert/strict";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import { startTestServer } from "../helpers/server.ts";
import { testRedisUrl } from "../helpers/redis.ts";

Deno.test("with a real Redis the server reports cache ok; with Redis unreachable it keeps answering and says degraded", async () => {
  const upstream = await startFakeUpstream();
  const base = { OSV_API_URL: upstream.url, PYPI_URL: upstream.url };
  const up = await startTestServer({ env: { ...base, REDIS_URL: testRedisUrl() } });
  // A port nothing listens on: take a free one and close it again.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const deadPort = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const down = await startTestServer({
    env: { ...base, REDIS_URL: `redis://127.0.0.1:${deadPort}` },
  });
  try {
    const first = await (await fetch(`${up.url}/api/v1/evaluate?package=black`)).json();
    equal(first.license, "MIT");
    const calls = upstream.calls["pypi.project"];
    const second = await (await fetch(`${up.url}/api/v1/evaluate?package=black`)).json();
    equal(second.license, "MIT");
    equal(upstream.calls["pypi.project"], calls, "the second lookup came from Redis");
    equal((await (await fetch(`${up.url}/api/v1/health`)).json()).cache, "ok");

    const res = await fetch(`${down.url}/api/v1/evaluate?package=black`);
    equal(res.status, 200);
    equal((await res.json()).license, "MIT");
    equal((await (await fetch(`${down.url}/api/v1/health`)).json()).cache, "degraded");
  } finally {
    await up.close();
    await down.close();
    await upstream.close();
  }
});
