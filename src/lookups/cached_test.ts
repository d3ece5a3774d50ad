import { equal, notEqual, ok } from "node:assert/strict";
import { createLookupSources, osvQueryKey, pypiLicenseKey } from "./cached.ts";
import { createMemoryCache } from "../cache/memory.ts";
import { loadSettings } from "../config/settings.ts";
import { silentLogger } from "../log/logger.ts";
import { startFakeUpstream } from "../../tests/helpers/fake_upstream.ts";

Deno.test("cache keys distinguish version-less from versioned queries", () => {
  equal(osvQueryKey("Requests", null), "policyd:v2:osv:query:requests");
  equal(osvQueryKey("requests", "2.31.0"), "policyd:v2:osv:query:requests==2.31.0");
  notEqual(osvQueryKey("requests", null), osvQueryKey("requests", ""));
  equal(pypiLicenseKey("Foo_Bar", null), "policyd:v2:pypi:license:foo-bar");
  notEqual(pypiLicenseKey("requests", null), osvQueryKey("requests", null));
});

Deno.test("cached lookups reach upstream once per key within the TTL", async () => {
  const upstream = await startFakeUpstream();
  try {
    const settings = loadSettings({ OSV_API_URL: upstream.url, PYPI_URL: upstream.url });
    const { vulnerabilities, licenses } = createLookupSources(
      settings,
      createMemoryCache(),
      silentLogger,
    );
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
  } finally {
    await upstream.close();
  }
});

Deno.test("unavailable answers are not cached", async () => {
  const upstream = await startFakeUpstream();
  try {
    const settings = loadSettings({ OSV_API_URL: upstream.url, PYPI_URL: upstream.url });
    const { vulnerabilities, licenses } = createLookupSources(
      settings,
      createMemoryCache(),
      silentLogger,
    );
    upstream.osv.mode = "error500";
    upstream.pypi.mode = "error500";
    equal((await vulnerabilities.query("requests", null)).status, "unavailable");
    equal((await licenses.lookup("requests", null)).status, "unavailable");
    upstream.osv.mode = "ok";
    upstream.pypi.mode = "ok";
    equal((await vulnerabilities.query("requests", null)).status, "ok");
    equal((await licenses.lookup("requests", null)).status, "ok");
    equal(upstream.calls["osv.query"], 2);
    equal(upstream.calls["pypi.project"], 2);
  } finally {
    await upstream.close();
  }
});

Deno.test("CACHE_TTL_SECONDS=0 caches nothing", async () => {
  const upstream = await startFakeUpstream();
  try {
    const settings = loadSettings({
      OSV_API_URL: upstream.url,
      PYPI_URL: upstream.url,
      CACHE_TTL_SECONDS: "0",
    });
    const { vulnerabilities } = createLookupSources(settings, createMemoryCache(), silentLogger);
    await vulnerabilities.query("requests", null);
    await vulnerabilities.query("requests", null);
    equal(upstream.calls["osv.query"], 2);
  } finally {
    await upstream.close();
  }
});
