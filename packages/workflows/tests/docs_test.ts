/**
 * Everything the library's docs import is exported: every TypeScript code
 * block of its README and the example's README, and every doc-comment
 * example of its modules, type-checks against the package
 * (`deno check --doc-only`).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const PACKAGE = fileURLToPath(new URL("../", import.meta.url));

async function docCheck(paths: string[]): Promise<{ success: boolean; log: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--doc-only", ...paths],
    cwd: PACKAGE,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { success: out.success, log: decode(out.stdout) + decode(out.stderr) };
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
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["publish", "--dry-run", "--allow-dirty"],
    cwd: PACKAGE,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const log = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
  assert.ok(out.success, log);
  assert.match(log, /Simulating publish of @policyd\/workflows@\d+\.\d+\.\d+/);
  assert.doesNotMatch(log, /_test\.ts|examples\//, "tests and examples are not published");
});
