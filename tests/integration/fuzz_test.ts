/**
 * A seeded fuzz run: 10,000 generated malformed requests across every route
 * of the app, in-process (`app.fetch`, no sockets, a few seconds). No answer
 * may be a 5xx, and the server must still be healthy and evaluating afterwards.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { API_ROUTES, fullPath } from "../../src/api/mod.ts";
import { loadSettings } from "../../src/settings.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { noLicenseData, noVulnerabilityData } from "../../src/lookups/none.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { buildServer } from "../../src/server.ts";

const REQUESTS = 10_000;
const SEED = 0x5eed_2026;

/** mulberry32: a small seeded generator, so a failure reproduces exactly. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}

const PATHS = [
  ...API_ROUTES.map((r) => fullPath(r).replace(":id", "1")),
  "/",
  "/dashboard/security",
  "/dashboard/legal",
  "/dashboard/agents",
  "/dashboard/registry",
  "/static/workshop.js",
  "/api/v1/approval-requests/0",
  "/api/v1/approval-requests/-1",
  "/api/v1/approval-requests/99999999999999999999",
  "/api/v1/nope",
  "/api/v1/evaluate/",
  "/%2e%2e/etc/passwd",
];

const ATOMS = [
  "",
  " ",
  "requests",
  "requests==2.31.0",
  "pycr\u0443pto",
  "\uff52\uff45\uff51",
  "../../etc/passwd",
  "*",
  "%00",
  "\u0000",
  "a".repeat(5000),
  "🙂",
  "null",
  "-1",
  "1e999",
  "NaN",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "requests>=2",
  "requests[socks]==1",
  "PENDING_REVIEW",
  "all",
  "30",
  "0",
  "\ud800",
];

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "text/yaml",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "",
  "application/json;;;",
];

function jsonJunk(r: ReturnType<typeof generator>, depth = 0): unknown {
  switch (r.int(depth > 3 ? 5 : 8)) {
    case 0:
      return r.pick(ATOMS);
    case 1:
      return r.int(2) ? r.int(1000) - 500 : r.next() * 1e308;
    case 2:
      return null;
    case 3:
      return r.int(2) === 1;
    case 4:
      return r.pick([[], {}, "", 0]);
    case 5:
      return Array.from({ length: r.int(4) }, () => jsonJunk(r, depth + 1));
    default: {
      const keys = [
        "package",
        "version",
        "packages",
        "rationale",
        "rule",
        "context",
        "yaml",
        "name",
        "status",
        "project",
        "source",
        r.pick(ATOMS),
      ];
      return Object.fromEntries(
        Array.from({ length: r.int(4) }, () => [r.pick(keys), jsonJunk(r, depth + 1)]),
      );
    }
  }
}

function body(r: ReturnType<typeof generator>): string | undefined {
  switch (r.int(6)) {
    case 0:
      return undefined;
    case 1:
      return r.pick(ATOMS);
    case 2:
      return JSON.stringify(jsonJunk(r)).slice(0, 4000 + r.int(4000));
    case 3:
      return "{" + r.pick(ATOMS);
    case 4:
      return `packages:\n  - name: ${r.pick(ATOMS)}\n    status: ${r.pick(ATOMS)}\n`;
    default:
      return JSON.stringify({
        packages: Array.from({ length: r.int(3) }, () => ({ package: r.pick(ATOMS) })),
      });
  }
}

function request(r: ReturnType<typeof generator>): Request {
  const method = r.pick([
    "GET",
    "GET",
    "POST",
    "POST",
    "PUT",
    "DELETE",
    "PATCH",
    "OPTIONS",
    "HEAD",
  ]);
  const url = new URL("http://127.0.0.1:8765" + r.pick(PATHS));
  for (let i = r.int(4); i > 0; i--) {
    url.searchParams.set(
      r.pick(["package", "version", "project", "days", "limit", "status", r.pick(ATOMS)]),
      r.pick(ATOMS),
    );
  }
  const headers = new Headers();
  const type = r.pick(CONTENT_TYPES);
  if (type) headers.set("content-type", type);
  const safeHeader = (value: string) => value.replace(/[^\x20-\x7e]/g, "?").slice(0, 300);
  if (r.int(3) === 0) headers.set("x-policy-project", safeHeader(r.pick(ATOMS)));
  if (r.int(4) === 0) headers.set("x-policy-source", safeHeader(r.pick(ATOMS)));
  if (r.int(6) === 0) {
    headers.set("origin", r.pick(["http://evil.example", "null", "http://127.0.0.1:8765"]));
  }
  if (r.int(6) === 0) headers.set("x-hub-signature-256", "sha256=" + "0".repeat(r.int(2) ? 64 : 3));
  if (r.int(6) === 0) headers.set("x-github-event", r.pick(["ping", "pull_request", "push", ""]));
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, { method, headers, body: hasBody ? body(r) : undefined });
}

Deno.test("10,000 seeded malformed requests across every route: no 5xx, still healthy", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-fuzz-" });
  await Deno.writeTextFile(join(dir, "registry.yaml"), await readExampleRegistry());
  const settings = loadSettings({
    POLICY_DB_PATH: join(dir, "policyd.db"),
    REGISTRY_PATH: join(dir, "registry.yaml"),
    REGISTRY_PROPOSER: "log_only",
    REGISTRY_WEBHOOK_SECRET: "fuzz-secret",
    CVE_SCAN_SCHEDULE: "off",
    REDIS_URL: "none",
  });
  const built = await buildServer(settings, {
    log: silentLogger,
    background: false,
    accessLog: false,
    lookups: { vulnerabilities: noVulnerabilityData, licenses: noLicenseData },
  });
  const r = generator(SEED);
  const env = { remoteAddr: { hostname: "127.0.0.1" } };
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  try {
    for (let i = 0; i < REQUESTS; i++) {
      const req = request(r);
      const described = `#${i} ${req.method} ${req.url}`;
      const res = await built.app.fetch(req, env);
      await res.body?.cancel();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500) failures.push(`${described} → ${res.status}`);
    }
    await built.deps.approvals.idle();
    assert.deepEqual(failures, [], `5xx answers:\n${failures.slice(0, 20).join("\n")}`);
    assert.ok((statuses.get(400) ?? 0) > 1000, "most requests reached validation");
    const health = await built.app.fetch(new Request("http://127.0.0.1:8765/api/v1/health"), env);
    assert.equal(health.status, 200);
    assert.equal((await health.json()).db, "ok");
    const evaluation = await built.app.fetch(
      new Request("http://127.0.0.1:8765/api/v1/evaluate?package=requests"),
      env,
    );
    assert.equal(evaluation.status, 200);
    assert.equal((await evaluation.json()).package, "requests");
  } finally {
    await built.close();
    await Deno.remove(dir, { recursive: true });
  }
});
