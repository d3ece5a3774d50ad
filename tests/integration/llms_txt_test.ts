/**
 * `/llms.txt` follows the llms.txt convention (an H1, a blockquote summary,
 * H2 sections of Markdown links) and every link it gives answers, also in org
 * mode without an identity; the documentation pages it lists are served.
 */
import assert from "node:assert/strict";
import { describePage } from "../../src/http/routes/llms.ts";
import { startTestServer } from "../helpers/server.ts";

const ORG_MODE = { AUTH_ENABLED: "true", AUTH_BACKEND: "header" };

Deno.test("llms.txt points at workflows.md, openapi.json and every docs page, all reachable without an identity", async () => {
  const server = await startTestServer({ env: ORG_MODE });
  try {
    const res = await fetch(`${server.url}/llms.txt`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/markdown; charset=utf-8");
    const text = await res.text();
    const lines = text.split("\n");
    assert.equal(lines[0], "# policyd");
    assert.equal(lines[1], "");
    assert.match(lines[2], /^> policyd answers whether a project may use a Python package/);
    assert.deepEqual(
      lines.filter((line) => line.startsWith("## ")),
      ["## API", "## Docs", "## Optional"],
    );
    const links = [...text.matchAll(/^- \[([^\]]+)\]\(([^)]+)\)(?:: (.+))?$/gm)];
    const urls = links.map((m) => m[2]);
    for (const path of ["/api/v1/workflows.md", "/api/v1/openapi.json", "/docs/auth.md"]) {
      assert.ok(urls.includes(`${server.url}${path}`), `llms.txt links ${path}`);
    }
    const docs = [];
    for await (const entry of Deno.readDir(new URL("../../docs/", import.meta.url))) {
      if (entry.name.endsWith(".md")) docs.push(`${server.url}/docs/${entry.name}`);
    }
    assert.deepEqual(urls.filter((u) => u.includes("/docs/")).sort(), docs.sort());
    for (const [, title, url, summary] of links) {
      assert.ok(title.trim() !== "" && summary?.trim(), `a title and a note for ${url}`);
      const linked = await fetch(url);
      await linked.body?.cancel();
      assert.equal(linked.status, 200, `${url} answers without an identity`);
    }
    const page = await fetch(`${server.url}/docs/auth.md`);
    assert.match(await page.text(), /^# Authentication and operator rights\n/);
  } finally {
    await server.close();
  }
});

Deno.test("an unknown or malformed docs page is a 404 problem, never a file outside docs/", async () => {
  const server = await startTestServer();
  try {
    for (const page of ["nope.md", "..%2FREADME.md", "auth.txt", "%2e%2e%2fdeno.json"]) {
      const res = await fetch(`${server.url}/docs/${page}`);
      assert.equal(res.status, 404, page);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      assert.equal((await res.json()).status, 404);
    }
  } finally {
    await server.close();
  }
});

Deno.test("describePage() takes the title and the first sentence", () => {
  assert.deepEqual(
    describePage("x.md", "# The `x` page\n\nIt does x. And more.\n\n## Later\n"),
    { file: "x.md", title: "The x page", summary: "It does x." },
  );
});
