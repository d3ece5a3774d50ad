/**
 * Adoption stays proven: the to-do example (examples/todo, a Hono 4.7 API of
 * its own) is copied to a fresh directory outside this repository, depends on
 * the package by path (`links`), and there its committed document must be up
 * to date (the runner re-runs its workflow tests), its code must type-check
 * against its own Hono version, and it must serve the document.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runDeno } from "./run_deno.ts";

const PACKAGE = fileURLToPath(new URL("../", import.meta.url));
const EXAMPLE = new URL("../examples/todo/", import.meta.url);

async function freshCopy(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "workflows-example-" });
  for await (const entry of Deno.readDir(EXAMPLE)) {
    if (entry.isFile && entry.name !== "deno.lock") {
      await Deno.copyFile(new URL(entry.name, EXAMPLE), join(dir, entry.name));
    }
  }
  const config = JSON.parse(await Deno.readTextFile(join(dir, "deno.json")));
  assert.deepEqual(config.links, ["../.."], "the example links the package by path");
  config.links = [PACKAGE];
  await Deno.writeTextFile(join(dir, "deno.json"), JSON.stringify(config, null, 2));
  return dir;
}

function deno(dir: string, ...args: string[]) {
  return runDeno(dir, args, { CI: "" });
}

Deno.test("the to-do example, copied outside the repository, checks its document, type-checks and serves it", async () => {
  const dir = await freshCopy();
  try {
    const config = JSON.parse(await Deno.readTextFile(join(dir, "deno.json")));
    assert.equal(config.imports.hono, "npm:hono@4.7.0", "the example uses a Hono of its own");

    const check = await deno(dir, "task", "docs:check");
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stderr, /workflows\.md is up to date \(4 workflows\)/);

    const types = await deno(dir, "check", "main.ts", "app.ts", "todo_workflows_test.ts");
    assert.equal(types.code, 0, types.stderr);

    const md = await Deno.readTextFile(join(dir, "workflows.md"));
    assert.match(md, /^---\nworkflows:\n {2}title: Todo API Workflows\n/);
    assert.equal(md.includes("todo_9Kq2Lm7Vt4Rp8Nb3Wz6Yh1CfQ"), false, "the API key is redacted");
    assert.match(md, /\| `due` \| body \| string \| `"2026-04-30"` \| optional \(2 of 6\) \|/);

    const served = await deno(
      dir,
      "eval",
      'const { app } = await import("./main.ts"); const r = await app.request("/workflows.md"); ' +
        'console.log(r.status, r.headers.get("content-type"), (await r.text()).length);',
    );
    assert.equal(served.code, 0, served.stderr);
    assert.equal(served.stdout.trim(), `200 text/markdown; charset=utf-8 ${md.length}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
