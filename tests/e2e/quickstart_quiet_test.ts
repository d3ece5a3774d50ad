/**
 * README's quickstart command, `deno task --quiet quickstart`, in a fresh
 * checkout (no `node_modules/` yet) prints policyd's own lines only: none of
 * Deno's `Initialize`/`Download` lines for the npm dependencies `deno task`
 * sets up (`--quiet`), nor of the nested `deno run` (the task passes `--quiet`).
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { REPO_ROOT } from "../helpers/cli.ts";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Copies the checkout's files (tracked and new, not ignored) into `to`. */
async function copyCheckout(to: string): Promise<void> {
  const listed = await new Deno.Command("git", {
    args: ["ls-files", "-co", "--exclude-standard", "-z"],
    cwd: REPO_ROOT,
    stdout: "piped",
  }).output();
  for (const path of decode(listed.stdout).split("\0").filter(Boolean)) {
    try {
      await Deno.mkdir(join(to, dirname(path)), { recursive: true });
      await Deno.copyFile(join(REPO_ROOT, path), join(to, path));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error; // deleted in the worktree
    }
  }
}

Deno.test("deno task --quiet quickstart sets up its npm dependencies without printing Deno's Initialize lines", async () => {
  const checkout = await Deno.makeTempDir({ prefix: "policyd-checkout-" });
  try {
    await copyCheckout(checkout);
    // README's command 1, as written (without its `npx --yes deno@…` prefix).
    const readme = await Deno.readTextFile(join(REPO_ROOT, "README.md"));
    const command = /^npx --yes deno@[\d.]+ (task .*quickstart)$/m.exec(readme)?.[1];
    assert.ok(command, "README shows the quickstart command");
    const ran = await new Deno.Command(Deno.execPath(), {
      args: [...command.split(" "), "--no-serve", "--target", join(checkout, ".policyd")],
      cwd: checkout,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const output = decode(ran.stdout) + decode(ran.stderr);
    assert.equal(ran.code, 0, output);
    assert.ok(
      Deno.statSync(join(checkout, "node_modules")).isDirectory,
      "dependencies were set up",
    );
    assert.match(output, /created .*registry\.yaml/);
    assert.doesNotMatch(output, /Initialize|Download/);
  } finally {
    await Deno.remove(checkout, { recursive: true });
  }
});
