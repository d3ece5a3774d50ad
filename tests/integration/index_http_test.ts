/**
 * The policy index over HTTP (issue 28): PEP 503 redirects, PEP 691
 * negotiation, byte-faithful file entries, a project denied as a whole
 * (404, one line, PEP 792 status), upstream revalidation with ETag, and
 * HTTP Basic with a token as the password in org mode.
 */
import assert from "node:assert/strict";
import { startFakeIndex } from "../helpers/fake_index.ts";
import { startOrgIndex } from "../helpers/token_verifier.ts";
import { startTestServer } from "../helpers/server.ts";

const REGISTRY = `
version: "index-http"
policies:
  cve_threshold: 7.0
  block_on_cve: true
  unversioned_cve_scope: latest
  licenses: { allowed: [MIT], denied: [] }
  unknown_license_policy: provisional
packages:
  - { name: goodpkg, status: approved }
  - { name: badpkg, status: banned, reason: "test ban" }
  - { name: oldpkg, status: deprecated, replacement: goodpkg }
  - { name: two-versions, status: version-constrained, max_version: "1.0" }
`;

const WHEELS = [
  { name: "goodpkg", version: "1.0", uploadTime: "2024-02-03T04:05:06.000000Z" },
  { name: "badpkg", version: "1.0" },
  { name: "oldpkg", version: "1.0" },
  { name: "two-versions", version: "1.0" },
  { name: "two-versions", version: "2.0" },
  { name: "yankedpkg", version: "1.0", yanked: "broken build" },
  { name: "yankedpkg", version: "1.1" },
];

const JSON_TYPE = "application/vnd.pypi.simple.v1+json";

Deno.test("the policy index answers PEP 503/691 pages decided per version", async (t) => {
  const index = await startFakeIndex(WHEELS);
  const server = await startTestServer({
    registryYaml: REGISTRY,
    env: { INDEX_UPSTREAM_URL: index.simpleUrl },
  });
  const get = (path: string, accept?: string) =>
    fetch(`${server.url}${path}`, {
      redirect: "manual",
      headers: accept ? { accept } : {},
    });
  try {
    await t.step("names are normalised with a 301 to the trailing-slash form", async () => {
      const a = await get("/simple/GoodPkg/");
      assert.equal(a.status, 301);
      assert.equal(new URL(a.headers.get("location")!, server.url).pathname, "/simple/goodpkg/");
      const b = await get("/p/web/simple/Two_Versions");
      assert.equal(b.status, 301);
      assert.equal(
        new URL(b.headers.get("location")!, server.url).pathname,
        "/p/web/simple/two-versions/",
      );
      await a.body?.cancel();
      await b.body?.cancel();
    });

    await t.step("JSON is preferred; file entries keep upstream's fields", async () => {
      const res = await get("/simple/goodpkg/", `${JSON_TYPE}, text/html;q=0.5`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), JSON_TYPE);
      const page = await res.json();
      assert.equal(page.files.length, 1);
      const file = page.files[0];
      assert.equal(file.url, "../../files/goodpkg/goodpkg-1.0-py3-none-any.whl");
      assert.equal(file["upload-time"], "2024-02-03T04:05:06.000000Z");
      assert.equal(file["requires-python"], ">=3.7");
      assert.match(file.hashes.sha256, /^[0-9a-f]{64}$/);
      assert.ok(file["core-metadata"].sha256);
    });

    await t.step("a page carries an ETag; If-None-Match with it gets a 304", async () => {
      const first = await get("/p/web/simple/goodpkg/", JSON_TYPE);
      const tag = first.headers.get("etag");
      assert.match(tag ?? "", /^"[A-Za-z0-9_-]{43}"$/, "a strong ETag: the bytes' SHA-256");
      const bytes = await first.arrayBuffer();
      const again = (headers: Record<string, string>) =>
        fetch(`${server.url}/p/web/simple/goodpkg/`, {
          headers: { accept: JSON_TYPE, ...headers },
        });
      for (const ifNoneMatch of [tag!, `W/${tag}`, `"other", ${tag}`, "*"]) {
        const res = await again({ "if-none-match": ifNoneMatch });
        assert.equal(res.status, 304, ifNoneMatch);
        assert.equal(res.headers.get("etag"), tag);
        assert.equal((await res.arrayBuffer()).byteLength, 0);
      }
      const changed = await again({ "if-none-match": '"other"' });
      assert.equal(changed.status, 200);
      assert.deepEqual(new Uint8Array(await changed.arrayBuffer()), new Uint8Array(bytes));
      const html = await get("/p/web/simple/goodpkg/", "text/html");
      assert.notEqual(html.headers.get("etag"), tag, "each format its own ETag");
      await html.body?.cancel();
      const denied = await fetch(`${server.url}/simple/badpkg/`, {
        headers: { "if-none-match": "*" },
      });
      assert.equal(denied.status, 404, "a denied project is never 304");
      assert.equal(denied.headers.get("etag"), null);
      await denied.body?.cancel();
    });

    await t.step(
      "HTML for text/html, with the hash fragment and PEP 658/714 attributes",
      async () => {
        const res = await get("/simple/goodpkg/", "text/html");
        assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
        const html = await res.text();
        assert.match(
          html,
          /<a href="\.\.\/\.\.\/files\/goodpkg\/goodpkg-1\.0-py3-none-any\.whl#sha256=[0-9a-f]{64}" data-requires-python="&gt;=3\.7" data-dist-info-metadata="sha256=[0-9a-f]{64}" data-core-metadata="sha256=[0-9a-f]{64}">goodpkg-1\.0-py3-none-any\.whl<\/a>/,
        );
      },
    );

    await t.step("a denied version loses its files; versions lists only what stays", async () => {
      const page = await (await get("/simple/two-versions/", JSON_TYPE)).json();
      assert.deepEqual(page.files.map((f: { filename: string }) => f.filename), [
        "two_versions-1.0-py3-none-any.whl",
      ]);
      assert.deepEqual(page.versions, ["1.0"]);
      const denied = await get("/files/two-versions/two_versions-2.0-py3-none-any.whl");
      assert.equal(denied.status, 403);
      assert.match(await denied.text(), /above the maximum 1\.0/);
    });

    await t.step("a release yanked upstream is left out", async () => {
      const page = await (await get("/simple/yankedpkg/", JSON_TYPE)).json();
      assert.deepEqual(page.versions, ["1.1"]);
      const res = await get("/files/yankedpkg/yankedpkg-1.0-py3-none-any.whl");
      assert.equal(res.status, 403);
      assert.equal(await res.text(), "policyd: yankedpkg==1.0 was yanked upstream: broken build\n");
    });

    await t.step("a project denied as a whole: 404, one line, PEP 792 status", async () => {
      const html = await get("/simple/badpkg/", "text/html");
      assert.equal(html.status, 404);
      assert.equal(
        await html.text(),
        'policyd: badpkg is banned by the registry (registry reason: "test ban")\n',
      );
      const json = await get("/simple/oldpkg/", JSON_TYPE);
      assert.equal(json.status, 404);
      const text = await json.text();
      assert.equal(text.split("\n").length, 2, "one line");
      const body = JSON.parse(text);
      assert.equal(body["project-status"].status, "deprecated");
      assert.match(body["project-status"].reason, /deprecated/);
      assert.deepEqual(body.files, []);
    });

    await t.step("unknown projects, bad names and unacceptable types are clear", async () => {
      const missing = await get("/simple/no-such-project/");
      assert.equal(missing.status, 404);
      assert.equal(
        await missing.text(),
        "policyd: no project no-such-project on the upstream index\n",
      );
      // Not PEP 508 names (core/names.ts): refused before any upstream lookup.
      for (const name of ["bad%20name", "-foo", "foo_", "x".repeat(201)]) {
        const bad = await get(`/simple/${name}/`);
        assert.equal(bad.status, 400, name);
        await bad.body?.cancel();
      }
      const notFile = await get("/files/goodpkg/other-1.0.tar.gz");
      assert.equal(notFile.status, 404);
      await notFile.body?.cancel();
      const control = await get("/files/goodpkg/%00");
      assert.equal(control.status, 400);
      await control.body?.cancel();
      const type = await get("/simple/goodpkg/", "application/pdf");
      assert.equal(type.status, 406);
      await type.body?.cancel();
    });

    await t.step("files stream from upstream; PEP 658 metadata too", async () => {
      const res = await get("/p/web/files/goodpkg/goodpkg-1.0-py3-none-any.whl");
      assert.equal(res.status, 200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.deepEqual(bytes, index.files.get("goodpkg-1.0-py3-none-any.whl"));
      const head = await fetch(`${server.url}/p/web/files/goodpkg/goodpkg-1.0-py3-none-any.whl`, {
        method: "HEAD",
      });
      assert.equal(head.status, 200);
      const headDenied = await fetch(`${server.url}/files/badpkg/badpkg-1.0-py3-none-any.whl`, {
        method: "HEAD",
      });
      assert.equal(headDenied.status, 403);
      const audit = await (await get("/api/v1/audit?source=index&package=goodpkg")).json();
      assert.equal(audit.items.length, 1, "a HEAD is not a download");
      const meta = await get("/p/web/files/goodpkg/goodpkg-1.0-py3-none-any.whl.metadata");
      assert.match(await meta.text(), /^Metadata-Version: 2\.1\nName: goodpkg\n/);
    });

    await t.step("the root lists the registry's installable packages", async () => {
      const root = await (await get("/simple/", JSON_TYPE)).json();
      assert.deepEqual(root.projects.map((p: { name: string }) => p.name).sort(), [
        "goodpkg",
        "two-versions",
      ]);
    });
  } finally {
    await server.close();
    await index.close();
  }
});

Deno.test("upstream pages are cached and revalidated with ETag", async () => {
  const index = await startFakeIndex([{ name: "goodpkg", version: "1.0" }]);
  let clock = Date.parse("2026-11-26T10:00:00Z");
  const server = await startTestServer({
    registryYaml: REGISTRY,
    env: {
      INDEX_UPSTREAM_URL: index.simpleUrl,
      INDEX_PAGE_FRESH_SECONDS: "60",
      // The embedded cache (REDIS_URL unset) instead of the test servers' `none`.
      REDIS_URL: undefined as unknown as string,
    },
    build: { now: () => new Date(clock) },
  });
  try {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/simple/goodpkg/`);
      assert.equal(res.status, 200);
      await res.body?.cancel();
    }
    assert.deepEqual(index.calls, { pages: 1, notModified: 0, files: 0 }, "fresh: one fetch");
    clock += 61_000;
    const res = await fetch(`${server.url}/simple/goodpkg/`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
    assert.deepEqual(index.calls, { pages: 2, notModified: 1, files: 0 }, "stale: a 304");
    await index.close();
    clock += 61_000;
    const stale = await fetch(`${server.url}/simple/goodpkg/`);
    assert.equal(stale.status, 200, "upstream down: the cached page is served");
    await stale.body?.cancel();
    const banned = await fetch(`${server.url}/simple/badpkg/`);
    assert.equal(banned.status, 404, "the registry decides a banned project without upstream");
    assert.equal(
      await banned.text(),
      'policyd: badpkg is banned by the registry (registry reason: "test ban")\n',
    );
    const unknown = await fetch(`${server.url}/simple/otherpkg/`);
    assert.equal(unknown.status, 502, "upstream down and nothing cached: a problem");
    assert.equal(unknown.headers.get("content-type"), "application/problem+json");
    await unknown.body?.cancel();
  } finally {
    await server.close();
    await index.close().catch(() => {});
  }
});

Deno.test("an upstream index without PEP 691 (HTML only) is read and re-served", async () => {
  const index = await startFakeIndex([
    { name: "two-versions", version: "1.0" },
    { name: "two-versions", version: "2.0" },
  ], { htmlOnly: true });
  const server = await startTestServer({
    registryYaml: REGISTRY,
    env: { INDEX_UPSTREAM_URL: index.simpleUrl },
  });
  try {
    const res = await fetch(`${server.url}/simple/two-versions/`, {
      headers: { accept: JSON_TYPE },
    });
    assert.equal(res.status, 200);
    const page = await res.json();
    assert.equal(page.meta["api-version"], "1.0");
    assert.deepEqual(page.files.map((f: { filename: string }) => f.filename), [
      "two_versions-1.0-py3-none-any.whl",
    ]);
    assert.equal(page.files[0]["requires-python"], ">=3.7");
    assert.match(page.files[0].hashes.sha256, /^[0-9a-f]{64}$/);
    const file = await fetch(`${server.url}/files/two-versions/two_versions-1.0-py3-none-any.whl`);
    assert.equal(file.status, 200);
    assert.deepEqual(
      new Uint8Array(await file.arrayBuffer()),
      index.files.get("two_versions-1.0-py3-none-any.whl"),
    );
  } finally {
    await server.close();
    await index.close();
  }
});

Deno.test("org mode: HTTP Basic with a token as the password authenticates the index", async () => {
  const org = await startOrgIndex(REGISTRY, "tok-ci-41f2");
  const server = org.server;
  try {
    const anonymous = await fetch(`${server.url}/simple/goodpkg/`);
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.headers.get("www-authenticate") ?? "", /Basic realm="policyd"/);
    await anonymous.body?.cancel();
    const basic = (password: string) => ({ authorization: `Basic ${btoa(`pip:${password}`)}` });
    const wrong = await fetch(`${server.url}/simple/goodpkg/`, { headers: basic("nope") });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    const ok = await fetch(`${server.url}/p/web/files/goodpkg/goodpkg-1.0-py3-none-any.whl`, {
      headers: basic("tok-ci-41f2"),
    });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    const audit = await fetch(`${server.url}/api/v1/audit?source=index`, {
      headers: { authorization: "Bearer tok-ci-41f2" },
    });
    const rows = (await audit.json()).items;
    assert.equal(rows.length, 1);
    assert.equal(rows[0].requester, "ci-bot");
    assert.equal(rows[0].project, "web");
  } finally {
    await org.close();
  }
});

Deno.test("a registry reload decides the page again: new files, new ETag, no stale 304", async () => {
  const index = await startFakeIndex(WHEELS);
  const server = await startTestServer({
    registryYaml: REGISTRY,
    env: {
      INDEX_UPSTREAM_URL: index.simpleUrl,
      // The embedded cache, so the warm path (reused decided page and rendering) is the one tested.
      REDIS_URL: undefined as unknown as string,
    },
  });
  const page = (headers: Record<string, string> = {}) =>
    fetch(`${server.url}/simple/two-versions/`, { headers: { accept: JSON_TYPE, ...headers } });
  try {
    const before = await page();
    const tag = before.headers.get("etag")!;
    assert.deepEqual((await before.json()).versions, ["1.0"]);
    const warm = await page({ "if-none-match": tag });
    assert.equal(warm.status, 304, "unchanged: 304");
    await warm.body?.cancel();
    await Deno.writeTextFile(
      server.registryPath,
      REGISTRY.replace('max_version: "1.0"', 'max_version: "2.0"'),
    );
    const reload = await fetch(`${server.url}/api/v1/registry/reload`, { method: "POST" });
    assert.equal(reload.status, 200);
    await reload.body?.cancel();
    const after = await page({ "if-none-match": tag });
    assert.equal(after.status, 200, "the reloaded registry makes another page");
    assert.notEqual(after.headers.get("etag"), tag);
    assert.deepEqual((await after.json()).versions, ["1.0", "2.0"]);
    const download = await fetch(
      `${server.url}/files/two-versions/two_versions-2.0-py3-none-any.whl`,
    );
    assert.equal(download.status, 200, "the file of the newly allowed version downloads");
    await download.body?.cancel();
    const audit = await (await fetch(
      `${server.url}/api/v1/audit?source=index&package=two-versions`,
    )).json();
    assert.deepEqual(audit.items.map((r: { version: string }) => r.version), ["2.0"], "audited");
  } finally {
    await server.close();
    await index.close();
  }
});
