/**
 * The npm build: `tools/build_npm.ts` compiles the package with `tsc` to ESM
 * and `.d.ts`; the result installs its own dependencies from its
 * `package.json` and works when imported by its entry points.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildNpm } from "../tools/build_npm.ts";
import { runDeno } from "./run_deno.ts";

Deno.test("the npm build has ESM and .d.ts for every entry point, and the built code runs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "workflows-npm-out-" });
  try {
    const out = join(dir, "workflows");
    const manifest = await buildNpm(out);
    assert.equal(manifest.name, "@policyd/workflows");
    assert.equal(manifest.type, "module");
    assert.deepEqual(Object.keys(manifest.exports as object), [
      ".",
      "./runner",
      "./serve",
      "./export",
    ]);
    for (const entry of ["mod", "runner", "serve", "export"]) {
      const js = await Deno.readTextFile(join(out, `${entry}.js`));
      assert.doesNotMatch(js, /from "\.[^"]*\.ts"/, `${entry}.js imports .js files`);
      assert.match(await Deno.readTextFile(join(out, `${entry}.d.ts`)), /export/);
    }
    const install = await new Deno.Command(Deno.execPath(), { args: ["install"], cwd: out })
      .output();
    assert.ok(install.success, new TextDecoder().decode(install.stderr));
    const script = [
      'import { buildDocument, renderDocument, Redactor } from "./mod.js";',
      'import { documentResponse } from "./serve.js";',
      'import { renderRuleFiles } from "./export.js";',
      "const md = renderDocument(buildDocument([]));",
      'const res = await documentResponse(new Request("http://x/w.md"), md, "text/markdown");',
      'const files = renderRuleFiles(md, { platforms: ["cline"], link: "w.md" });',
      'console.log(md.split("\\n")[0], res.status, files[0].path,',
      '  new Redactor().string("ghp_R2d9Kx7LmQ4vT8nB3wZ6yH1cF5jP0sA9eU2i"));',
    ].join("\n");
    await Deno.writeTextFile(join(out, "try.mjs"), script);
    const run = await runDeno(out, ["run", "-A", "try.mjs"]);
    assert.ok(run.success, run.stderr);
    assert.equal(
      run.stdout.trim(),
      "# API Workflows 200 .clinerules/api-workflows.md [REDACTED]",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
