import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { createRedisCache } from "./redis.ts";
import type { Cache } from "./types.ts";
import { createLogger, silentLogger } from "../log/logger.ts";
import { optionsFromEnv } from "../config/area.ts";
import { lookupsArea } from "../lookups/settings.ts";
import { createLookupSources } from "../lookups/cached.ts";
import { startFakeUpstream } from "../../tests/helpers/fake_upstream.ts";
import { testRedisUrl } from "../../tests/helpers/redis.ts";

// The real Redis of the run (deno task test makes sure one answers); a missing Redis fails these tests.
const SHARED_REDIS = testRedisUrl();

async function waitFor(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

function startRedisServer(port: number): Deno.ChildProcess {
  return new Deno.Command("redis-server", {
    args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    stdout: "null",
    stderr: "null",
  }).spawn();
}

const unique = `policyd-test:${crypto.randomUUID()}`;

Deno.test("redis cache stores JSON with a TTL on the real Redis", async () => {
  const cache = createRedisCache(SHARED_REDIS, silentLogger);
  try {
    await waitFor(() => cache.health() === "ok", `Redis at ${SHARED_REDIS}`);
    await cache.set(`${unique}:a`, { list: [1, "two"], n: null }, 60);
    deepStrictEqual(await cache.get(`${unique}:a`), { list: [1, "two"], n: null });
    equal(await cache.get(`${unique}:missing`), undefined);
    await cache.set(`${unique}:short`, "v", 1);
    equal(await cache.get(`${unique}:short`), "v");
    await new Promise((r) => setTimeout(r, 1100));
    equal(await cache.get(`${unique}:short`), undefined, "entry outlived its TTL");
    await cache.set(`${unique}:zero`, "v", 0);
    equal(await cache.get(`${unique}:zero`), undefined);
  } finally {
    await cache.close();
  }
});

Deno.test("an unreachable Redis behaves as a miss, fast, and reports degraded", async () => {
  const cache = createRedisCache(`redis://127.0.0.1:${freePort()}`, silentLogger);
  try {
    const started = performance.now();
    await cache.set("k", "v", 60);
    equal(await cache.get("k"), undefined);
    ok(performance.now() - started < 250);
    equal(cache.health(), "degraded");
  } finally {
    await cache.close();
  }
});

Deno.test("a REDIS_URL node-redis cannot use runs uncached instead of throwing", async () => {
  const lines: string[] = [];
  const cache = createRedisCache("redis://host:99999", createLogger("info", (l) => lines.push(l)));
  await cache.set("k", "v", 60);
  equal(await cache.get("k"), undefined);
  equal(cache.health(), "degraded");
  ok(lines.some((l) => JSON.parse(l).level === "error"));
  await cache.close();
});

Deno.test("lookups keep answering while Redis stops, and use it again once it is back", async () => {
  const port = freePort();
  let server = startRedisServer(port);
  const upstream = await startFakeUpstream();
  const lines: string[] = [];
  const cache: Cache = createRedisCache(
    `redis://127.0.0.1:${port}`,
    createLogger("info", (l) => lines.push(l)),
    { maxReconnectDelayMs: 200 },
  );
  try {
    const settings = optionsFromEnv(lookupsArea, {
      OSV_API_URL: upstream.url,
      PYPI_URL: upstream.url,
      LOOKUP_TIMEOUT_MS: "2000",
    });
    let clock = new Date("2026-11-23T12:00:00Z");
    const { vulnerabilities, licenses } = createLookupSources(
      settings,
      { store: cache, ttlSeconds: 21600 },
      silentLogger,
      () => clock,
    );
    await waitFor(() => cache.health() === "ok", "the test Redis");

    // Cached while Redis runs: the second lookup does not reach upstream, and
    // it keeps the time of the first fetch (the value stored in Redis carries it).
    const firstVulns = await vulnerabilities.query("requests", null);
    const firstLicense = await licenses.lookup("requests", null);
    clock = new Date("2026-11-23T12:30:00Z");
    const againVulns = await vulnerabilities.query("requests", null);
    const againLicense = await licenses.lookup("requests", null);
    for (const [first, again] of [[firstVulns, againVulns], [firstLicense, againLicense]]) {
      ok(first.status === "ok" && again.status === "ok");
      equal(first.fetched_at, "2026-11-23T12:00:00.000Z");
      equal(first.cached, undefined);
      equal(again.fetched_at, "2026-11-23T12:00:00.000Z");
      equal(again.cached, true);
    }
    equal(upstream.calls["osv.query"], 1);
    equal(upstream.calls["pypi.project"], 1);

    server.kill("SIGKILL");
    await server.status;
    await waitFor(() => cache.health() === "degraded", "health to turn degraded");

    // Still answering, uncached, without waiting on the dead cache.
    const started = performance.now();
    const facts = await vulnerabilities.query("requests", null);
    const license = await licenses.lookup("requests", null);
    equal(facts.status, "ok");
    equal(license.status, "ok");
    ok(performance.now() - started < 1000);
    equal(upstream.calls["osv.query"], 2);
    equal(upstream.calls["pypi.project"], 2);
    equal(cache.health(), "degraded");
    ok(lines.some((l) => JSON.parse(l).msg === "redis cache unreachable"));

    server = startRedisServer(port);
    await waitFor(() => cache.health() === "ok", "the client to reconnect");
    ok(lines.some((l) => JSON.parse(l).msg === "redis cache reconnected"));
    await vulnerabilities.query("requests", null); // repopulates the empty new server
    await vulnerabilities.query("requests", null);
    equal(upstream.calls["osv.query"], 3);
  } finally {
    await cache.close();
    await upstream.close();
    try {
      server.kill("SIGKILL");
    } catch {
      // already gone
    }
    await server.status;
  }
});
