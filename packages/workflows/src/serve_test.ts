import assert from "node:assert/strict";
import { Hono } from "hono";
import {
  documentEtag,
  type DocumentHandler,
  fileSource,
  honoMount,
  type MountGet,
  serveWorkflows,
} from "./serve.ts";

const MARKDOWN = "# API Workflows\n\nBody ✓\n";
const JSON_TWIN = '{"format":"workflows/v1","title":"API Workflows","workflows":[]}\n';

Deno.test("serveWorkflows() serves markdown and JSON with a strong ETag", async () => {
  const app = serveWorkflows(new Hono(), {
    path: "/api/v1/workflows.md",
    markdown: MARKDOWN,
    json: () => JSON_TWIN,
  });
  const md = await app.request("/api/v1/workflows.md");
  assert.equal(md.status, 200);
  assert.equal(md.headers.get("content-type"), "text/markdown; charset=utf-8");
  const etag = md.headers.get("etag");
  assert.equal(etag, await documentEtag(MARKDOWN));
  assert.match(etag ?? "", /^"sha256-[A-Za-z0-9_-]{43}"$/);
  assert.equal(await md.text(), MARKDOWN);

  const head = await app.request("/api/v1/workflows.md", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("etag"), etag);
  assert.equal(await head.text(), "");

  const json = await app.request("/api/v1/workflows.json");
  assert.equal(json.status, 200);
  assert.equal(json.headers.get("content-type"), "application/json");
  assert.equal(json.headers.get("etag"), await documentEtag(JSON_TWIN));
  assert.equal(await json.text(), JSON_TWIN);
});

Deno.test("serveWorkflows() answers If-None-Match with 304 and a changed document with 200", async () => {
  let current = MARKDOWN;
  const app = serveWorkflows(new Hono(), { markdown: () => current });
  const first = await app.request("/workflows.md");
  const etag = first.headers.get("etag")!;
  await first.body?.cancel();
  for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
    const res = await app.request("/workflows.md", { headers: { "if-none-match": header } });
    assert.equal(res.status, 304, header);
    assert.equal(res.headers.get("etag"), etag);
    assert.equal(await res.text(), "");
  }
  current = MARKDOWN + "more\n";
  const changed = await app.request("/workflows.md", { headers: { "if-none-match": etag } });
  assert.equal(changed.status, 200);
  assert.notEqual(changed.headers.get("etag"), etag);
  assert.equal(await changed.text(), current);
});

Deno.test("fileSource() reads per request and yields 404 while the file is missing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/workflows.md`;
    const app = serveWorkflows(new Hono(), { markdown: fileSource(path) });
    const missing = await app.request("/workflows.md");
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    await Deno.writeTextFile(path, MARKDOWN);
    const present = await app.request("/workflows.md");
    assert.equal(present.status, 200);
    assert.equal(await present.text(), MARKDOWN);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serveWorkflows() mounts on any router through a MountGet adapter, and on Hono through honoMount", async () => {
  const routes = new Map<string, DocumentHandler>();
  const mount: MountGet = (path, handler) => routes.set(path, handler);
  assert.equal(serveWorkflows(mount, { markdown: MARKDOWN, json: JSON_TWIN }), mount);
  assert.deepEqual([...routes.keys()], ["/workflows.md", "/workflows.json"]);
  const md = await routes.get("/workflows.md")!(new Request("http://x/workflows.md"));
  assert.equal(md.status, 200);
  assert.equal(await md.text(), MARKDOWN);

  const app = new Hono().basePath("/docs");
  serveWorkflows(honoMount(app), { path: "/guide.md", markdown: MARKDOWN });
  const res = await app.request("/docs/guide.md");
  assert.equal(res.status, 200);
  assert.equal(await res.text(), MARKDOWN);
});
