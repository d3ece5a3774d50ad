/**
 * Everything the library's docs import is exported: every TypeScript code
 * block of its README and the example's README, and every doc-comment
 * example of its modules, type-checks against the package
 * (`deno check --doc-only`).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runDeno } from "./run_deno.ts";

const PACKAGE = fileURLToPath(new URL("../", import.meta.url));

async function docCheck(paths: string[]): Promise<{ success: boolean; log: string }> {
  const { success, stdout, stderr } = await runDeno(PACKAGE, ["check", "--doc-only", ...paths]);
  return { success, log: stdout + stderr };
}

Deno.test("every code block of the library's docs and modules type-checks against the package", async () => {
  const { success, log } = await docCheck([
    "README.md",
    "examples/todo/README.md",
    "mod.ts",
    "runner.ts",
    "serve.ts",
    "export.ts",
    "src",
  ]);
  assert.ok(success, log);
});

Deno.test("the doc check catches an import the package does not export", async () => {
  const file = await Deno.makeTempFile({ dir: PACKAGE, prefix: ".doc-check-", suffix: ".md" });
  try {
    await Deno.writeTextFile(
      file,
      '# x\n\n```ts\nimport { NotExported } from "@policyd/workflows";\nconsole.log(NotExported);\n```\n',
    );
    const { success, log } = await docCheck([file]);
    assert.equal(success, false, log);
    assert.match(log, /TS2305/);
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("the package is ready to publish to JSR (deno publish --dry-run)", async () => {
  const out = await runDeno(PACKAGE, ["publish", "--dry-run", "--allow-dirty"]);
  const log = out.stderr + out.stdout;
  assert.ok(out.success, log);
  assert.match(log, /Simulating publish of @policyd\/workflows@\d+\.\d+\.\d+/);
  assert.doesNotMatch(log, /_test\.ts|examples\//, "tests and examples are not published");
});
