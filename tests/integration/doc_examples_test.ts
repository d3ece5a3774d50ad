import { ok } from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../helpers/cli.ts";

/**
 * The folders whose doc-comment examples must type-check (issue 21), and the
 * workflow library's reference, whose code blocks must type-check against the
 * package (issue 35).
 */
const DOC_FOLDERS = ["src", "cli", "dashboards", "packages", "docs/workflows.md"];

/** Runs `deno check --doc-only` on `paths` from the repository root. */
async function docCheck(paths: string[]): Promise<{ success: boolean; log: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--doc-only", ...paths],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { success: out.success, log: decode(out.stdout) + decode(out.stderr) };
}

Deno.test("every doc-comment example in src, cli, dashboards and packages, and every code block of docs/workflows.md, type-checks", async () => {
  const { success, log } = await docCheck(DOC_FOLDERS);
  ok(success, `deno check --doc-only ${DOC_FOLDERS.join(" ")} failed:\n${log}`);
});

Deno.test("the doc check fails on an example that does not type-check", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "double.ts");
    await Deno.writeTextFile(
      file,
      [
        "/**",
        " * Doubles a number.",
        " *",
        " * @example",
        " * ```ts",
        ' * double("two");',
        " * ```",
        " */",
        "export function double(n: number): number {",
        "  return 2 * n;",
        "}",
        "",
      ].join("\n"),
    );
    const { success, log } = await docCheck([file]);
    ok(!success, `a string passed as a number was accepted:\n${log}`);
    ok(log.includes("TS2345"), `the failure is not the argument type error:\n${log}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
