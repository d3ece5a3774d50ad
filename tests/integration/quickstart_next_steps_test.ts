/**
 * What a new user reads after `policyd quickstart --port N` (issue #29): the
 * next steps name the server URL with its port, and the settings file the
 * quickstart writes makes `policyd check-config` check what it serves with.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { run } from "../../cli/policyd/program.ts";
import { runPolicyd } from "../helpers/policyd_cli.ts";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test("quickstart --port prints next steps with --server-url and a settings file check-config reads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-quickstart-" });
  const target = join(dir, ".policyd");
  const port = freePort();
  let stdout = "";
  let stop!: () => void;
  const stopSignal = new Promise<void>((resolve) => (stop = resolve));
  try {
    const code = await run(["quickstart", "--target", target, "--port", String(port)], {
      stdout: (text) => {
        stdout += text;
        stop(); // the banner is printed once the server listens
      },
      stderr: () => {},
      env: { LOG_LEVEL: "error" },
      stopSignal,
    });
    assert.equal(code, 0);
    const url = `http://127.0.0.1:${port}`;
    assert.match(stdout, new RegExp(`policy init --yes --server-url ${url} `));
    const envFile = join(target, "quickstart.env");
    assert.ok(stdout.includes(`policyd check-config --env-file ${envFile}`), stdout);

    const bare = await runPolicyd(["check-config", "--json"], {});
    const bareRow = JSON.parse(bare.stdout).rows.find((r: { check: string }) =>
      r.check === "registry_path"
    );
    assert.equal(bareRow.status, "warn", "without the file the variable is unset");

    const checked = await runPolicyd(["check-config", "--json", "--env-file", envFile], {});
    const rows: { check: string; status: string; detail: string }[] = JSON.parse(checked.stdout)
      .rows;
    const byName = Object.fromEntries(rows.map((r) => [r.check, r]));
    assert.equal(byName.registry_path.status, "ok");
    assert.equal(byName.registry_path.detail, `REGISTRY_PATH=${join(target, "registry.yaml")}`);
    assert.equal(byName.registry_yaml.status, "ok", byName.registry_yaml.detail);
    assert.match(byName.proposer.detail, /local_file/);
    assert.equal(checked.code, 0, checked.stdout);

    const missing = await runPolicyd(["check-config", "--env-file", join(dir, "nope.env")], {});
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^policyd: cannot read --env-file .*nope\.env/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("check-config in a quickstart's directory says how to check its settings", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-quickstart-" });
  const cwd = Deno.cwd();
  try {
    assert.equal(
      (await runPolicyd(["quickstart", "--target", join(dir, ".policyd"), "--no-serve"])).code,
      0,
    );
    Deno.chdir(dir);
    const checked = await runPolicyd(["check-config"], {});
    assert.match(
      checked.stdout,
      /hint: quickstart's settings are in \.policyd\/quickstart\.env: run policyd check-config --env-file \.policyd\/quickstart\.env/,
    );
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(dir, { recursive: true });
  }
});
