/**
 * `policy init --precommit-framework` with Debian's real `pre-commit`: the
 * user's `.pre-commit-config.yaml` is extended (their content kept), our git
 * shim makes way so `pre-commit install` chains no second hook, a banned
 * dependency fails the commit, and `policy status` recognises the framework
 * and reports the upstreams that are down.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import {
  deadServerUrl,
  exec,
  gitIn,
  policyOnPathDir,
  shell,
  tempGitRepo,
  writePolicyToml,
} from "../../cli/policy/_testing.ts";
import { startTestServer } from "../helpers/server.ts";

const GOOD = `[project]\nname = "demo"\ndependencies = ["requests>=2.31"]\n`;
const USER_CONFIG = `# our team's hooks: keep this comment
minimum_pre_commit_version: "2.9.0"   # spaced as the user likes
repos:
  - repo: local
    hooks:
      - id: nothing   # a hook of the user's
        name: does nothing
        entry: "true"
        language: system
        types: [ python ]
`;
const USER_TAIL = `
# the end of the user's file
fail_fast: false
`;

Deno.test("init --precommit-framework: the real pre-commit runs policyd's hook and a banned dependency fails the commit; status recognises it", async (t) => {
  const dead = deadServerUrl();
  const server = await startTestServer({ env: { OSV_API_URL: dead, PYPI_URL: dead } });
  const dir = await tempGitRepo({
    "pyproject.toml": GOOD,
    ".pre-commit-config.yaml": USER_CONFIG + USER_TAIL,
  });
  const bin = await policyOnPathDir();
  const cache = await Deno.makeTempDir({ prefix: "pre-commit-home-" });
  const env = { PATH: `${bin}:${Deno.env.get("PATH")}`, PRE_COMMIT_HOME: cache };
  const run = (command: string) => shell(command, { cwd: dir, env });
  try {
    await writePolicyToml(dir, server.url, "auto_request_approval = false\n");
    const flags = "--yes --no-claude-hooks --no-claude-md --no-mcp";

    await t.step(
      "the framework replaces an earlier git shim and extends the user's config",
      async () => {
        assert.equal((await run(`policy init ${flags}`)).code, 0);
        assert.ok(Deno.statSync(join(dir, ".git/hooks/pre-commit")).isFile, "the git shim");
        const init = await run(`policy init ${flags} --precommit-framework`);
        assert.equal(init.code, 0, init.stderr);
        assert.match(
          init.stdout,
          /wrote {5}pre-commit framework hook: .*\.pre-commit-config\.yaml/,
        );
        assert.match(init.stdout, /removed {3}git pre-commit shim/);
        assert.match(init.stdout, /run `pre-commit install`/);
        assert.throws(
          () => Deno.statSync(join(dir, ".git/hooks/pre-commit")),
          Deno.errors.NotFound,
        );
        const text = await Deno.readTextFile(join(dir, ".pre-commit-config.yaml"));
        assert.ok(text.startsWith(USER_CONFIG), `the user's lines are kept as they were:\n${text}`);
        assert.ok(text.endsWith(USER_TAIL), `the user's lines are kept as they were:\n${text}`);
        const repos = parseYaml(text).repos;
        assert.equal(repos.length, 2);
        assert.deepEqual(repos[1].hooks.map((h: { id: string }) => h.id), ["policy"]);
        assert.equal(repos[1].hooks[0].entry, "policy precommit");
        const again = await run(`policy init ${flags} --precommit-framework`);
        assert.match(again.stdout, /unchanged pre-commit framework hook/);
        assert.equal(await Deno.readTextFile(join(dir, ".pre-commit-config.yaml")), text);
      },
    );

    await t.step("status: configured but not active until pre-commit install", async () => {
      const status = JSON.parse((await run("policy status --json")).stdout);
      const hooks = status.sections.find((s: { name: string }) => s.name === "hooks");
      assert.match(hooks.detail, /pre-commit framework hook configured but not active/);
    });

    await t.step(
      "pre-commit install chains nothing; a banned dependency fails the commit",
      async () => {
        await gitIn(dir, ["add", ".pre-commit-config.yaml", ".policy.toml"]);
        const install = await run("pre-commit install");
        assert.equal(install.code, 0, install.stderr + install.stdout);
        assert.doesNotMatch(install.stdout, /legacy|migration/i);
        assert.throws(() => Deno.statSync(join(dir, ".git/hooks/pre-commit.legacy")));
        assert.throws(() => Deno.statSync(join(dir, ".git/hooks/pre-commit.policy-chained")));
        const setup = await run("git commit -q -m 'pre-commit framework'");
        assert.equal(setup.code, 0, setup.stdout + setup.stderr);

        await Deno.writeTextFile(
          join(dir, "pyproject.toml"),
          GOOD.replace(`"requests>=2.31"`, `"requests>=2.31", "pycrypto==2.6.1"`),
        );
        await gitIn(dir, ["add", "pyproject.toml"]);
        const commit = await run("git commit -m 'add pycrypto'");
        const output = commit.stdout + commit.stderr;
        assert.notEqual(commit.code, 0, output);
        assert.match(output, /policyd dependency policy\.+Failed/);
        assert.match(output, /policy precommit: commit blocked: the dependency checked is denied/);
        assert.match(output, /pycrypto/);
        const log = await exec("git", ["log", "--oneline"], { cwd: dir });
        assert.doesNotMatch(log.stdout, /add pycrypto/);
      },
    );

    await t.step(
      "status: the framework hook is installed; upstreams down are reported",
      async () => {
        await fetch(`${server.url}/api/v1/evaluate?package=some-unknown-package`).then((r) =>
          r.body?.cancel()
        );
        const ran = await run("policy status --json");
        const status = JSON.parse(ran.stdout);
        const byName = Object.fromEntries(
          status.sections.map((s: { name: string }) => [s.name, s]),
        );
        assert.match(byName.hooks.detail, /^pre-commit framework hook installed/);
        assert.doesNotMatch(byName.hooks.detail, /pre-commit missing/);
        assert.equal(byName.upstreams.flag, "warn");
        assert.match(byName.upstreams.detail, /OSV failing, skipped until \S+: POST \S+ failed/);
        assert.match(byName.upstreams.detail, /PyPI failing/);
        const text = (await run("policy status")).stdout;
        assert.match(text, /\[warn\] upstreams +OSV failing/);
      },
    );
  } finally {
    await server.close();
    for (const path of [dir, bin, cache]) await Deno.remove(path, { recursive: true });
  }
});
