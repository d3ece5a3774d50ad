import assert from "node:assert/strict";
import { join } from "node:path";
import { ApiClient } from "./api_client.ts";
import { type CachedRegistry, offlineVerdict, readCachedRegistry } from "./offline_registry.ts";
import { registryCachePath } from "./registry_cache_path.ts";

const REGISTRY: CachedRegistry = {
  version: "r-7",
  etag: null,
  fetched_at: "2026-11-26T00:00:00Z",
  packages: [
    { name: "pycrypto", status: "banned", reason: "unmaintained", replacement: "cryptography" },
    { name: "nose", status: "deprecated", replacement: "pytest" },
    { name: "urllib3", status: "version-constrained", min_version: "2.2.2", max_version: "2.9" },
    { name: "requests", status: "preferred" },
  ],
};

Deno.test("offlineVerdict() denies what the registry alone decides, and nothing else", () => {
  const why = "the server is unreachable";
  const cases: Array<[string, string | null, string | null]> = [
    ["pycrypto", null, "DENIAL_BANNED"],
    ["PyCrypto==2.6.1", null, "DENIAL_BANNED"],
    ["nose", "1.3.7", "DENIAL_DEPRECATED"],
    ["urllib3", "1.26.18", "DENIAL_VERSION_CONSTRAINT"],
    ["urllib3", "3.0", "DENIAL_VERSION_CONSTRAINT"],
    ["urllib3", "2.2.2", null],
    ["urllib3<2", null, "DENIAL_VERSION_CONSTRAINT"],
    ["urllib3<2.2.2", null, "DENIAL_VERSION_CONSTRAINT"],
    ["urllib3<=2.2.2", null, null],
    ["urllib3>=1.26,<3", null, null],
    ["urllib3>2.9", null, "DENIAL_VERSION_CONSTRAINT"],
    ["urllib3>=2.9", null, null],
    ["urllib3==2.*", null, null],
    ["requests", null, null],
    ["left-pad", null, null],
  ];
  for (const [pkg, version, category] of cases) {
    const result = offlineVerdict(REGISTRY, { package: pkg, version }, why);
    assert.equal(result?.denial_category ?? null, category, `${pkg} ${version}`);
    if (result) {
      assert.equal(result.verdict, "DENIED");
      assert.equal(result.offline_registry_version, "r-7");
      assert.match(
        result.reason,
        /\(decided offline from registry version r-7: the server is unreachable\)$/,
      );
    }
  }
  assert.match(
    offlineVerdict(REGISTRY, { package: "pycrypto" }, why)!.reason,
    /^pycrypto is banned by the registry: unmaintained; use cryptography instead/,
  );
});

Deno.test("registryCachePath(): POLICY_CACHE_DIR, XDG_CACHE_HOME, HOME; one file per server", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.equal(
    registryCachePath("http://127.0.0.1:8765", env({ POLICY_CACHE_DIR: "/c", HOME: "/h" })),
    "/c/registry-127.0.0.1_8765.json",
  );
  assert.equal(
    registryCachePath("https://policy.example.org/", env({ XDG_CACHE_HOME: "/x", HOME: "/h" })),
    "/x/policy/registry-policy.example.org_.json",
  );
  assert.equal(
    registryCachePath("http://h:1", env({ HOME: "/h" })),
    "/h/.cache/policy/registry-h_1.json",
  );
  assert.equal(registryCachePath("http://h:1", env({})), null);
});

Deno.test("the client stores the registry, revalidates it by ETag only when stale, and keeps it on 304", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policy-offline-" });
  const path = join(dir, "registry.json");
  const seen: Array<{ path: string; ifNoneMatch: string | null }> = [];
  let version = "v1";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    seen.push({ path: url.pathname, ifNoneMatch: req.headers.get("if-none-match") });
    if (url.pathname === "/api/v1/registry") {
      const etag = `"${version}"`;
      if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304 });
      return Response.json({ version, packages: [{ name: "pycrypto", status: "banned" }] }, {
        headers: { etag },
      });
    }
    return Response.json({ package: "requests", verdict: "ALLOWED", reason: "", cves: [] });
  });
  const client = new ApiClient({
    serverUrl: `http://127.0.0.1:${server.addr.port}`,
    project: "demo",
    failOpen: true,
    source: "check",
    registryCache: path,
  });
  try {
    await client.evaluate("requests");
    assert.equal(readCachedRegistry(path)?.version, "v1");
    assert.equal(readCachedRegistry(path)?.etag, '"v1"');
    await client.evaluate("requests");
    assert.equal(seen.filter((s) => s.path === "/api/v1/registry").length, 1, "fresh: no refresh");
    const old = new Date(Date.now() - 10 * 60_000);
    Deno.utimeSync(path, old, old);
    await client.evaluate("requests");
    const refreshes = seen.filter((s) => s.path === "/api/v1/registry");
    assert.equal(refreshes.length, 2);
    assert.equal(refreshes[1].ifNoneMatch, '"v1"');
    assert.ok(Deno.statSync(path).mtime!.getTime() > old.getTime(), "a 304 marks it confirmed");
    version = "v2";
    Deno.utimeSync(path, old, old);
    await client.evaluate("requests");
    assert.equal(readCachedRegistry(path)?.version, "v2");
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
