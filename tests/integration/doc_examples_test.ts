import { ok } from "node:assert/strict";
import { REPO_ROOT } from "../helpers/cli.ts";

/** The folders whose doc-comment examples must type-check (issue 21). */
const DOC_FOLDERS = ["src", "cli", "dashboards"];

Deno.test("every doc-comment example in src, cli and dashboards type-checks", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--doc-only", ...DOC_FOLDERS],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const log = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  // The examples were found and checked, not skipped: a known one is named in the log.
  ok(log.includes("src/core/evaluate.ts#"), `the doc check did not reach src/core:\n${log}`);
  ok(out.success, `deno check --doc-only ${DOC_FOLDERS.join(" ")} failed:\n${log}`);
});
