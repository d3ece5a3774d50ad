/**
 * Every documentation page the workflow document cites — in its conventions,
 * its settings or a workflow's intent or Requires line — is served at
 * `/docs/<page>.md` and listed in `/llms.txt`, so a reader of the served
 * document can follow each reference.
 */
import assert from "node:assert/strict";
import { loadConventions, renderConventions, renderSettings } from "@policyd/workflows/runner";
import { startTestServer } from "../helpers/server.ts";

const REPO = new URL("../../", import.meta.url);

/** The texts the workflow document is built from: conventions, settings, workflow sources. */
async function documentSources(): Promise<string[]> {
  const conventions = await loadConventions("src/workflows/conventions.ts", REPO.pathname);
  const texts = [renderConventions(conventions), renderSettings(conventions.settings!, [])];
  for (const dir of ["tests/workflows/", "tests/helpers/"]) {
    for await (const entry of Deno.readDir(new URL(dir, REPO))) {
      if (!entry.name.endsWith(".ts")) continue;
      const text = await Deno.readTextFile(new URL(dir + entry.name, REPO));
      if (text.includes("workflow(") || entry.name === "requires.ts") texts.push(text);
    }
  }
  return texts;
}

Deno.test("every docs page the workflow document cites is served and listed in llms.txt", async () => {
  const cited = new Set<string>();
  for (const text of await documentSources()) {
    for (const m of text.matchAll(/\bdocs\/([a-z][a-z0-9_-]*\.md)\b/g)) cited.add(m[1]);
  }
  for (const page of ["deployment.md", "index.md"]) assert.ok(cited.has(page), `${page} is cited`);
  const server = await startTestServer();
  try {
    const llms = await (await fetch(`${server.url}/llms.txt`)).text();
    for (const page of cited) {
      const url = `${server.url}/docs/${page}`;
      assert.ok(llms.includes(`](${url})`), `llms.txt lists ${page}`);
      const res = await fetch(url);
      assert.equal(res.status, 200, `${url} is served`);
      assert.match(await res.text(), /^# /, `${page} is the Markdown page`);
    }
  } finally {
    await server.close();
  }
});
