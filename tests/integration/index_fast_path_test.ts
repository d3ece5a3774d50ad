/**
 * The fast path for warm index pages (`src/http/index_fast_path.ts`) answers
 * exactly what the app's router and middleware answer: the same requests
 * against a server with the fast path (the default) and one without it (the
 * rate limit on turns it off) get the same status, headers and body, and
 * the same access lines; a wrong credential counts once against the
 * failed-login limit.
 */
import assert from "node:assert/strict";
import { startFakeIndex } from "../helpers/fake_index.ts";
import { startOrgIndex } from "../helpers/token_verifier.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const REGISTRY = `
version: "index-fast-path"
policies:
  cve_threshold: 7.0
  block_on_cve: true
  unversioned_cve_scope: latest
  licenses: { allowed: [MIT], denied: [] }
  unknown_license_policy: provisional
packages:
  - { name: goodpkg, status: approved }
  - { name: badpkg, status: banned, reason: "test ban" }
  - { name: two-versions, status: version-constrained, max_version: "1.0" }
`;

const WHEELS = [
  { name: "goodpkg", version: "1.0" },
  { name: "badpkg", version: "1.0" },
  { name: "two-versions", version: "1.0" },
  { name: "two-versions", version: "2.0" },
];

const JSON_TYPE = "application/vnd.pypi.simple.v1+json";

/** What a request answered, without what differs by design (date, generated request ids). */
async function answerOf(server: TestServer, path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}${path}`, { redirect: "manual", ...init });
  const headers = [...res.headers].filter(([name]) => name !== "date");
  const sent = new Headers(init.headers).get("x-request-id");
  const id = headers.find(([name]) => name === "x-request-id");
  assert.ok(id, `${path}: x-request-id`);
  if (sent === null) id[1] = "(generated)";
  return { path, status: res.status, headers, body: await res.text() };
}

/** The `request` access lines, without their time and duration. */
function accessLines(lines: string[]) {
  return lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "request").map((l) => ({
    level: l.level,
    method: l.method,
    path: l.path,
    status: l.status,
    id: typeof l.request_id,
    fields: Object.keys(l).join(","),
  }));
}

Deno.test("warm index pages answer the same with and without the fast path", async () => {
  const index = await startFakeIndex(WHEELS);
  const env = { INDEX_UPSTREAM_URL: index.simpleUrl, LOG_LEVEL: "info" };
  const fastLines: string[] = [];
  const slowLines: string[] = [];
  const fast = await startTestServer({ registryYaml: REGISTRY, env, logLines: fastLines });
  const slow = await startTestServer({
    registryYaml: REGISTRY,
    env: { ...env, RATE_LIMIT_PER_MINUTE: "1000000" },
    logLines: slowLines,
  });
  try {
    // Both warm (the first answer of a page comes from the app either way).
    const warm = await Promise.all(
      [fast, slow].map((s) =>
        fetch(`${s.url}/simple/goodpkg/`, { headers: { accept: JSON_TYPE } })
      ),
    );
    const etag = warm[0].headers.get("etag")!;
    assert.equal(warm[1].headers.get("etag"), etag);
    await Promise.all(warm.map((res) => res.body?.cancel()));
    const requests: Array<[string, RequestInit?]> = [
      ["/simple/goodpkg/", { headers: { accept: JSON_TYPE } }],
      ["/simple/goodpkg/"],
      ["/p/web/simple/two-versions/", { headers: { accept: `${JSON_TYPE}, text/html;q=0.5` } }],
      ["/simple/goodpkg/", { headers: { accept: JSON_TYPE, "if-none-match": etag } }],
      ["/simple/goodpkg/", { headers: { accept: JSON_TYPE, "if-none-match": '"other"' } }],
      ["/simple/goodpkg/", { headers: { "x-request-id": "given-1" } }],
      ["/simple/goodpkg/", { headers: { host: "evil.example" } }],
      ["/simple/goodpkg/", { headers: { accept: "image/png" } }],
      ["/simple/goodpkg/?project=web"],
      ["/simple/goodpkg/", { headers: { "x-policy-project": "bad project" } }],
      ["/simple/goodpkg/", { headers: { "x-policy-source": "nonsense" } }],
      ["/p/b%20d/simple/goodpkg/"],
      ["/p/web/simple/GoodPkg/"],
      ["/simple/badpkg/"],
      ["/simple/no-such-project/"],
      ["/simple/goodpkg/", { method: "HEAD" }],
    ];
    for (const [path, init] of requests) {
      const a = await answerOf(fast, path, init);
      const b = await answerOf(slow, path, init);
      assert.deepEqual(a, b, `${path} ${JSON.stringify(init?.headers ?? {})}`);
    }
    assert.deepEqual(accessLines(fastLines), accessLines(slowLines));
    assert.equal(accessLines(fastLines).length, requests.length + 1);
  } finally {
    await fast.close();
    await slow.close();
    await index.close();
  }
});

Deno.test("the fast path counts a wrong credential once against the failed-login limit", async () => {
  const org = await startOrgIndex(REGISTRY, "tok-ci-41f2", { AUTH_FAILURES_PER_MINUTE: "2" });
  const server = org.server;
  const basic = (password: string) => ({ authorization: `Basic ${btoa(`pip:${password}`)}` });
  try {
    // Warm the page, so the fast path (not the app) answers what follows.
    const ok = await fetch(`${server.url}/simple/goodpkg/`, { headers: basic("tok-ci-41f2") });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/simple/goodpkg/`, { headers: basic("nope") });
      statuses.push(res.status);
      if (res.status === 401) {
        assert.match(res.headers.get("www-authenticate") ?? "", /Basic realm="policyd"/);
      }
      assert.ok(res.headers.get("x-request-id"));
      await res.body?.cancel();
    }
    // Counted twice, the second wrong credential would already get the 429.
    assert.deepEqual(statuses, [401, 401, 429]);
  } finally {
    await org.close();
  }
});
