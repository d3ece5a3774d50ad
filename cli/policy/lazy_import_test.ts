import assert from "node:assert/strict";
import { TARGETS } from "../../tools/compile.ts";

const ROOT = new URL("../../", import.meta.url);

/** Every `lazyImport<typeof import("…")>` target of the client, as repository paths. */
async function lazyTargets(): Promise<Set<string>> {
  const targets = new Set<string>();
  const scan = async (file: URL) => {
    // Code only: doc-comment examples (lines starting with "*") are not imports.
    const text = (await Deno.readTextFile(file)).split("\n")
      .filter((line) => !/^\s*\*/.test(line)).join("\n");
    // Relative targets only: an npm package is in the binary through the modules that import it.
    for (const m of text.matchAll(/lazyImport<\s*typeof import\("(\.[^"]+)"\)\s*>/g)) {
      targets.add(new URL(m[1], file).pathname.slice(ROOT.pathname.length));
    }
  };
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url);
      else if (/\.ts$/.test(entry.name) && !/_test\.ts$/.test(entry.name)) await scan(url);
    }
  };
  await scan(new URL("cli/policy.ts", ROOT));
  await walk(new URL("cli/policy/", ROOT));
  return targets;
}

Deno.test("deno task compile includes every module the client imports lazily", async () => {
  const targets = await lazyTargets();
  assert.ok(targets.has("cli/policy/commands/check.ts"), "the sources were read");
  const policy = TARGETS.find((t) => t.name === "policy")!;
  assert.deepEqual([...targets].sort(), [...policy.assets].sort());
});
