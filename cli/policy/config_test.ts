import assert from "node:assert/strict";
import { join } from "node:path";
import { findConfigFile, loadConfig, parseConfigFile } from "./config.ts";
import { ClientError } from "./exit_codes.ts";

function tempTree(): string {
  const root = Deno.makeTempDirSync({ prefix: "policy-config-" });
  Deno.mkdirSync(join(root, "app", "src", "deep"), { recursive: true });
  return root;
}

Deno.test("loadConfig() walks up to .policy.toml and takes its directory as root", async () => {
  const root = tempTree();
  const app = join(root, "app");
  Deno.writeTextFileSync(join(app, ".policy.toml"), `server_url = "http://10.0.0.1:9000/"\n`);
  Deno.writeTextFileSync(join(app, "pyproject.toml"), `[project]\nname = "shop"\n`);
  const config = await loadConfig(join(app, "src", "deep"));
  assert.equal(config.root, app);
  assert.equal(config.configPath, join(app, ".policy.toml"));
  assert.equal(config.project, "shop");
  assert.equal(config.server_url, "http://10.0.0.1:9000");
  assert.equal(findConfigFile(root), null);
});

Deno.test("loadConfig() without a file uses the working directory and single-user defaults", async () => {
  const root = tempTree();
  const cwd = join(root, "app");
  const config = await loadConfig(cwd);
  assert.deepEqual(config, {
    root: cwd,
    configPath: null,
    project: "app",
    server_url: "http://127.0.0.1:8765",
    mode: "single-user",
    fail_open: true,
    api_key_env_var: "POLICY_API_KEY",
    auto_request_approval: true,
    timeout_seconds: 10,
  });
});

Deno.test("org mode defaults to fail-closed and no automatic approval requests", async () => {
  const root = tempTree();
  Deno.writeTextFileSync(join(root, ".policy.toml"), `mode = "org"\nproject = "p"\n`);
  const config = await loadConfig(root);
  assert.equal(config.fail_open, false);
  assert.equal(config.auto_request_approval, false);
  assert.equal(config.project, "p");
});

Deno.test("parseConfigFile() rejects bad files with one line naming the file and key", async (t) => {
  const cases: Array<[string, RegExp]> = [
    [`mode = "team"`, /Invalid \/x\/.policy.toml: key "mode"/],
    [`fail_open = "yes"`, /key "fail_open"/],
    [`fail-open = true`, /fail-open/],
    [`server_url = "ftp://h"`, /key "server_url"/],
    [`server_url = `, /Invalid \/x\/.policy.toml: /],
  ];
  for (const [text, pattern] of cases) {
    await t.step(text, async () => {
      await assert.rejects(() => parseConfigFile(text, "/x/.policy.toml"), (e: unknown) => {
        assert.ok(e instanceof ClientError);
        assert.equal(e.code, "config");
        assert.match(e.message, pattern);
        assert.ok(!e.message.includes("\n"), e.message);
        return true;
      });
    });
  }
});
