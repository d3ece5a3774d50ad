import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { ClientError } from "../exit_codes.ts";
import { REPO_ROOT } from "../_testing.ts";
import {
  FRAMEWORK_CONFIG,
  frameworkHookConfigured,
  installFrameworkHook,
  localRepo,
} from "./precommit_framework.ts";

async function inTemp(check: (dir: string) => void | Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "policy-framework-" });
  try {
    await check(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const configOf = (dir: string) => Deno.readTextFileSync(join(dir, FRAMEWORK_CONFIG));

Deno.test("the local hook runs with the published hook's settings", async () => {
  const published = parse(await Deno.readTextFile(join(REPO_ROOT, ".pre-commit-hooks.yaml")))[0];
  const local = (localRepo("") as { hooks: Record<string, unknown>[] }).hooks[0];
  for (const key of ["id", "name", "entry", "files", "pass_filenames", "require_serial"]) {
    assert.deepEqual(local[key], published[key], key);
  }
});

Deno.test("installFrameworkHook() writes a new config, then leaves it alone", () =>
  inTemp((dir) => {
    assert.equal(frameworkHookConfigured(dir), false);
    assert.equal(installFrameworkHook(dir, "").written, true);
    const doc = parse(configOf(dir));
    assert.deepEqual(doc.repos, [localRepo("")]);
    assert.equal(frameworkHookConfigured(dir), true);
    const before = configOf(dir);
    assert.equal(installFrameworkHook(dir, "").written, false);
    assert.equal(configOf(dir), before);
  }));

Deno.test("installFrameworkHook() extends other shapes through the document model", async (t) => {
  const cases: Array<[string, string]> = [
    ["an empty file", ""],
    ["no repos", "# only a comment\nfail_fast: true\n"],
    ["a flow list", "repos: []  # none yet\n"],
  ];
  for (const [name, text] of cases) {
    await t.step(name, () =>
      inTemp((dir) => {
        Deno.writeTextFileSync(join(dir, FRAMEWORK_CONFIG), text);
        assert.equal(installFrameworkHook(dir, "sub dir").written, true);
        const out = configOf(dir);
        const repos = parse(out).repos;
        assert.deepEqual(repos.at(-1), localRepo("sub dir"));
        assert.equal(
          repos.at(-1).hooks[0].entry,
          `sh -c 'cd "$1" && exec policy precommit' policy 'sub dir'`,
        );
        for (const comment of text.match(/#.*$/gm) ?? []) assert.ok(out.includes(comment), out);
      }));
  }
});

Deno.test("installFrameworkHook() recognises the published hook and refuses broken files", async (t) => {
  await t.step("the published hook by id", () =>
    inTemp((dir) => {
      const text = "repos:\n  - repo: https://github.com/acme/policyd\n    rev: v0.1.0\n" +
        "    hooks:\n      - id: policy\n";
      Deno.writeTextFileSync(join(dir, FRAMEWORK_CONFIG), text);
      assert.equal(installFrameworkHook(dir, "").written, false);
      assert.equal(configOf(dir), text);
    }));
  for (const [name, text] of [["invalid YAML", "repos: [\n"], ["repos not a list", "repos: 3\n"]]) {
    await t.step(name, () =>
      inTemp((dir) => {
        Deno.writeTextFileSync(join(dir, FRAMEWORK_CONFIG), text);
        assert.throws(() => installFrameworkHook(dir, ""), (e) =>
          e instanceof ClientError && e.code === "config" && /fix it first/.test(e.message));
        assert.equal(configOf(dir), text, "left as it was");
      }));
  }
});
