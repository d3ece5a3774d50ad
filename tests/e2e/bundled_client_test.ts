/**
 * End-to-end: the bundled client (`tools/bundle_client.ts`, what `deno task
 * install` installs) answers exactly as the sources do. Each case runs the
 * same command through both against a real policyd and compares exit code,
 * stdout and stderr: the fast paths inside the bundle's entry, and every part
 * it loads from `lib/` (the commander program, the full requirement parser,
 * zod's error wording, the offline registry, errors crossing between the
 * two builds). Then `policy init` run from the bundle installs a git shim
 * that calls the bundle back without configuration, and a real `git commit`
 * of a banned dependency fails through it.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { bundleClient } from "../../tools/bundle_client.ts";
import {
  bundledPolicyCmd,
  exec,
  gitIn,
  type Ran,
  SOURCE_POLICY_CMD,
  tempGitRepo,
  writePolicyToml,
} from "../../cli/policy/_testing.ts";

/** What may differ between two runs of one command: the audit ids the server hands out. */
const normal = (text: string) => text.replace(/"audit_id":\s*\d+/g, '"audit_id":N');

function assertSame(bundled: Ran, source: Ran, label: string) {
  assert.equal(bundled.code, source.code, `${label}: exit code\n${bundled.stderr}`);
  assert.equal(normal(bundled.stdout), normal(source.stdout), `${label}: stdout`);
  assert.equal(normal(bundled.stderr), normal(source.stderr), `${label}: stderr`);
}

const claudeShell = (cwd: string, command: string) =>
  JSON.stringify({
    session_id: "s1",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
  });

Deno.test("the bundled client answers as the sources do, and its git shim blocks a banned dependency", async (t) => {
  const out = await Deno.makeTempDir({ prefix: "policy-bundle-test-" });
  const server = await startTestServer();
  const dirs: string[] = [out];
  let stopped = false;
  try {
    const entry = await bundleClient({ outDir: join(out, "policy") });
    const BUNDLED = bundledPolicyCmd(entry);
    const both = async (
      args: string[],
      options: { cwd: string; stdin?: string; env?: Record<string, string> },
    ) => {
      const bundled = await exec(BUNDLED[0], [...BUNDLED.slice(1), ...args], options);
      const source = await exec(
        SOURCE_POLICY_CMD[0],
        [...SOURCE_POLICY_CMD.slice(1), ...args],
        options,
      );
      return { bundled, source };
    };

    const dir = await tempGitRepo({ "requirements.txt": "requests==2.32.3\n" });
    dirs.push(dir);
    await writePolicyToml(dir, server.url, "auto_request_approval = false\n");

    const stageRequirements = async (text: string) => {
      await Deno.writeTextFile(join(dir, "requirements.txt"), text);
      await gitIn(dir, ["add", "requirements.txt"]);
    };
    const cases: Array<[string, string[], { stdin?: string; setup?: () => Promise<void> }]> = [
      ["check of a banned package", ["check", "pycrypto"], {}],
      ["check --json of an allowed package", ["check", "requests", "--json"], {}],
      ["an agent's pip install of a banned package", ["hook"], {
        stdin: claudeShell(dir, "pip install pycrypto"),
      }],
      ["an agent's command that installs nothing", ["hook"], {
        stdin: claudeShell(dir, "ls -la && git status"),
      }],
      ["an agent's install through the shell reader", ["hook"], {
        stdin: claudeShell(
          dir,
          'PKG=pycrypto; for p in requests "$PKG"; do pip install "$p"; done',
        ),
      }],
      ["the commander program's help", ["--help"], {}],
      ["audit of a requirements file", ["audit", "requirements.txt"], {}],
      // A CommonJS package (yaml) loaded lazily from lib/.
      ["audit of an environment.yml", ["audit", "environment.yml"], {
        setup: () =>
          Deno.writeTextFile(
            join(dir, "environment.yml"),
            "name: demo\ndependencies:\n  - python=3.12\n  - pip:\n    - pycrypto==2.6.1\n",
          ),
      }],
      // The error is made in lib/ and worded by the entry: `instanceof` across the two builds.
      ["audit of a file that is not there", ["audit", "missing.txt"], {}],
      ["precommit of a plain requirement (the quick path)", ["precommit"], {
        setup: () => stageRequirements("requests==2.32.3\npycrypto==2.6.1\n"),
      }],
      ["precommit of a requirement with extras and a marker (the full reader)", ["precommit"], {
        setup: () =>
          stageRequirements('requests[socks]==2.32.3 ; python_version >= "3.8"\npycrypto==2.6.1\n'),
      }],
    ];
    for (const [label, args, { stdin, setup }] of cases) {
      await t.step(label, async () => {
        await setup?.();
        const { bundled, source } = await both(args, { cwd: dir, stdin });
        assertSame(bundled, source, label);
      });
    }

    await t.step("a .policy.toml with an unknown key: zod's one-line error from lib/", async () => {
      const bad = await tempGitRepo({});
      dirs.push(bad);
      await writePolicyToml(bad, server.url, "colour = true\n");
      const { bundled, source } = await both(["check", "requests"], { cwd: bad });
      assertSame(bundled, source, "bad config");
      assert.equal(bundled.code, 78, bundled.stderr);
      assert.match(bundled.stderr, /colour/);
    });

    await t.step(
      "policy init from the bundle installs a shim that calls the bundle back",
      async () => {
        await gitIn(dir, ["reset", "-q", "--hard"]);
        const init = await exec(
          BUNDLED[0],
          [...BUNDLED.slice(1), "init", "--yes", "--no-claude-hooks", "--no-claude-md"],
          { cwd: dir },
        );
        assert.equal(init.code, 0, init.stderr);
        const shim = await Deno.readTextFile(join(dir, ".git", "hooks", "pre-commit"));
        // The eager copy, with V8's eager compilation (tools/bundle_client.ts).
        const eager = join(dirname(entry), "eager", "policy.js");
        assert.ok(
          shim.includes(
            `run -A --no-config --v8-flags=--no-lazy ${eager} precommit --staged-diff-stdin`,
          ),
          shim,
        );
        await gitIn(dir, ["add", ".policy.toml"]);
        await gitIn(dir, ["commit", "-q", "-m", "policy config"]);
        await stageRequirements("requests==2.32.3\npycrypto==2.6.1\n");
        const commit = await gitIn(dir, ["commit", "-m", "add pycrypto"], true);
        assert.equal(commit.code, 1, commit.stderr);
        assert.match(commit.stderr, /commit blocked: .*pycrypto/s);
        assert.match(commit.stderr, /DENIAL_BANNED/);
      },
    );

    await t.step("a bundle older than its checkout says so on the program's commands", async () => {
      // The bundle records the commit it was built from; this checkout is at another one.
      const checkout = await tempGitRepo({});
      dirs.push(checkout);
      await Deno.mkdir(join(checkout, "dist"));
      await new Deno.Command("cp", { args: ["-r", dirname(entry), join(checkout, "dist")] })
        .output();
      const moved = bundledPolicyCmd(join(checkout, "dist", "policy", "policy.js"));
      const version = await exec(moved[0], [...moved.slice(1), "--cli-version"], { cwd: dir });
      assert.equal(version.code, 0, version.stderr);
      assert.match(
        version.stderr,
        /^policy: warning: this client was built from commit [0-9a-f]{12}; its checkout is now at [0-9a-f]{12}: run `deno task install` there to rebuild it\n$/,
      );
      // The fast paths do not look.
      const check = await exec(moved[0], [...moved.slice(1), "check", "requests"], { cwd: dir });
      assert.doesNotMatch(check.stderr, /built from commit/);
    });

    await t.step("with the server stopped, the registry kept offline decides in both", async () => {
      const cache = join(out, "cache");
      const env = { POLICY_CACHE_DIR: cache };
      const online = await exec(BUNDLED[0], [...BUNDLED.slice(1), "check", "requests"], {
        cwd: dir,
        env,
      });
      assert.equal(online.code, 0, online.stderr);
      await server.close();
      stopped = true;
      const { bundled, source } = await both(["check", "pycrypto"], { cwd: dir, env });
      assertSame(bundled, source, "offline check");
      assert.match(bundled.stdout, /decided offline from registry version 2026\.11\.21/);
    });
  } finally {
    if (!stopped) await server.close();
    for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
  }
});
