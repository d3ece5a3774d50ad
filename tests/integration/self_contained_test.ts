/**
 * The repository is the whole product: nothing in it may read outside it.
 * A fresh clone has no shared folder beside it, so any tracked file naming that
 * folder (a fixture path, a script, a doc telling users to look there) fails.
 */
import assert from "node:assert/strict";
import { REPO_ROOT } from "../helpers/cli.ts";

// Built from parts so this file does not match itself.
const OUTSIDE = ["..", "shared"].join("/");
const SHARED_FIXTURES = ["shared", "fixtures"].join("/");

async function trackedFiles(): Promise<string[]> {
  const out = await new Deno.Command("git", {
    args: ["ls-files", "-z"],
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).split("\0").filter((path) => path !== "");
}

Deno.test("no tracked file references the shared folder outside the repository", async () => {
  const files = await trackedFiles();
  assert.ok(files.includes("tests/fixtures/README.md"), "the file list was read");
  const offenders: string[] = [];
  for (const path of files) {
    let text: string;
    try {
      text = await Deno.readTextFile(`${REPO_ROOT}/${path}`);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue; // deleted in the working tree
      throw error;
    }
    for (const [n, line] of text.split("\n").entries()) {
      if (line.includes(OUTSIDE) || line.includes(SHARED_FIXTURES)) {
        offenders.push(`${path}:${n + 1}: ${line.trim().slice(0, 120)}`);
      }
    }
  }
  assert.deepEqual(offenders, [], "copy the data into tests/fixtures/ and point there instead");
});
