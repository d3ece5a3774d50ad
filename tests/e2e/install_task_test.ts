/**
 * `deno task install` puts `policyd` and `policy` on a PATH: installed into a
 * temporary DENO_INSTALL_ROOT that already ends in `bin` (Deno then installs
 * into it, not into `bin/bin`), both answer `--help` from an unrelated
 * directory with exactly the PATH line the task printed.
 */
import assert from "node:assert/strict";
import { delimiter, dirname, join } from "node:path";
import { REPO_ROOT } from "../helpers/cli.ts";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("deno task install gives policyd and policy commands that work from any directory", async () => {
  const root = await Deno.makeTempDir({ prefix: "policyd-install-root-" });
  const installRoot = join(root, "bin");
  const elsewhere = await Deno.makeTempDir({ prefix: "policyd-install-cwd-" });
  try {
    const install = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "install"],
      cwd: REPO_ROOT,
      env: { DENO_INSTALL_ROOT: installRoot, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const installLog = decode(install.stderr);
    assert.equal(install.code, 0, installLog);
    assert.match(installLog, new RegExp(`installed policyd and policy in ${installRoot}\n`));
    const printed = /export PATH="(.*):\$PATH"/.exec(installLog)?.[1];
    assert.equal(
      printed,
      installRoot,
      "the printed PATH line names the folder Deno installed into",
    );
    assert.ok(Deno.statSync(join(printed, "policy")).isFile);

    // A PATH with the printed folder and Deno, as after following the hint.
    const path = [printed, dirname(Deno.execPath()), "/usr/bin", "/bin"].join(delimiter);
    for (
      const [command, banner] of [["policyd", /^Usage: policyd /], ["policy", /^Usage: policy /]]
    ) {
      const run = await new Deno.Command(command as string, {
        args: ["--help"],
        cwd: elsewhere,
        env: { PATH: path, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(run.code, 0, decode(run.stderr));
      assert.match(decode(run.stdout), banner as RegExp);
    }
    assert.deepEqual([...Deno.readDirSync(elsewhere)], [], "--help wrote nothing into the cwd");
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  }
});
