import { equal, notEqual, ok } from "node:assert/strict";
import { createLookupSources, type LookupSources, osvQueryKey, pypiLicenseKey } from "./cached.ts";
import { createMemoryCache } from "../cache/memory.ts";
import { type Environment, optionsFromEnv } from "../config/area.ts";
import { cacheArea } from "../cache/settings.ts";
import { lookupsArea } from "./settings.ts";
import { silentLogger } from "../log/logger.ts";
import { type FakeUpstream, startFakeUpstream } from "../../tests/helpers/fake_upstream.ts";

/** Runs `check` with cached lookup sources (memory cache) reading a fresh fake upstream. */
async function withCachedSources(
  check: (sources: LookupSources, upstream: FakeUpstream) => Promise<void>,
  env: Environment = {},
  now: () => Date = () => new Date(),
): Promise<void> {
  const upstream = await startFakeUpstream();
  try {
    const vars = { OSV_API_URL: upstream.url, PYPI_URL: upstream.url, ...env };
    const caching = {
      store: createMemoryCache(),
      ttlSeconds: optionsFromEnv(cacheArea, vars).ttlSeconds,
    };
    const lookups = optionsFromEnv(lookupsArea, vars);
    await check(createLookupSources(lookups, caching, silentLogger, now), upstream);
  } finally {
    await upstream.close();
  }
}

Deno.test("cache keys distinguish version-less from versioned queries", () => {
  equal(osvQueryKey("Requests", null), "policyd:v3:osv:query:requests");
  equal(osvQueryKey("requests", "2.31.0"), "policyd:v3:osv:query:requests==2.31.0");
  notEqual(osvQueryKey("requests", null), osvQueryKey("requests", ""));
  equal(pypiLicenseKey("Foo_Bar", null), "policyd:v3:pypi:license:foo-bar");
  notEqual(pypiLicenseKey("requests", null), osvQueryKey("requests", null));
});

Deno.test("cached lookups reach upstream once per key within the TTL", () =>
  withCachedSources(async ({ vulnerabilities, licenses }, upstream) => {
    const first = await vulnerabilities.query("requests", null);
    const again = await vulnerabilities.query("Requests", null);
    ok(first.status === "ok" && again.status === "ok");
    equal(first.cached, undefined);
    equal(again.cached, true, "the second answer says it came from the cache");
    ok(first.fetched_at, "the first answer carries its fetch time");
    equal(again.fetched_at, first.fetched_at, "the cached answer keeps the first fetch time");
    equal(JSON.stringify({ ...again, cached: undefined }), JSON.stringify(first));
    equal(upstream.calls["osv.query"], 1);
    await vulnerabilities.query("requests", "2.31.0"); // own key
    await vulnerabilities.query("requests", "2.31.0");
    equal(upstream.calls["osv.query"], 2);
    await licenses.lookup("requests", null);
    await licenses.lookup("requests", null);
    await licenses.lookup("requests", "2.18.0");
    await licenses.lookup("requests", "2.18.0");
    equal(upstream.calls["pypi.project"], 2); // one of its own + one for the versioned lookup
    equal(upstream.calls["pypi.release"], 1);
  }));

Deno.test("unavailable answers are not cached", () => {
  let clock = Date.parse("2026-11-23T12:00:00Z");
  return withCachedSources(
    async ({ vulnerabilities, licenses }, upstream) => {
      upstream.osv.mode = "error500";
      upstream.pypi.mode = "error500";
      equal((await vulnerabilities.query("requests", null)).status, "unavailable");
      equal((await licenses.lookup("requests", null)).status, "unavailable");
      upstream.osv.mode = "ok";
      upstream.pypi.mode = "ok";
      const skipped = await vulnerabilities.query("requests", null);
      ok(skipped.status === "unavailable" && /^OSV skipped/.test(skipped.detail), "breaker open");
      equal(upstream.calls["osv.query"], 1, "the open breaker skipped the upstream");
      clock += 30_000; // the breakers' retry time
      equal((await vulnerabilities.query("requests", null)).status, "ok");
      equal((await licenses.lookup("requests", null)).status, "ok");
      equal(upstream.calls["osv.query"], 2);
      equal(upstream.calls["pypi.project"], 2);
    },
    {},
    () => new Date(clock),
  );
});

Deno.test("CACHE_TTL_SECONDS=0 caches nothing", () =>
  withCachedSources(async ({ vulnerabilities }, upstream) => {
    await vulnerabilities.query("requests", null);
    await vulnerabilities.query("requests", null);
    equal(upstream.calls["osv.query"], 2);
  }, { CACHE_TTL_SECONDS: "0" }));
