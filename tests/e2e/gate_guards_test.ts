/**
 * End-to-end: the gate's guards through the `policy hook` command against a real policyd (issue
 * #27 items 1, 3, 5 and 8, #28 item 5, #26 item 7): what it cannot read is denied under
 * `fail_open = false` and warned about otherwise; an unusable `.policy.toml` (also in a sub-folder)
 * denies in every mode; shell writes into manifests are gated; the gate's own files, approvals
 * and other indexes (in a project that installs through policyd's index) are denied; each denied
 * package has its own request line and the JSON line.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { policy, tempGitRepo, writePolicyToml } from "../../cli/policy/_testing.ts";

const PYPROJECT = `[project]\nname = "demo"\ndependencies = [\n    "requests>=2.31",\n]\n`;

function bash(dir: string, command: string, cwd = dir) {
  return JSON.stringify({
    session_id: "guards",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
  });
}

async function hook(dir: string, stdin: string) {
  const ran = await policy(["hook"], { cwd: dir, stdin, env: { CLAUDE_PROJECT_DIR: dir } });
  assert.equal(ran.code, 0, ran.stderr);
  const json = ran.stdout.trim() ? JSON.parse(ran.stdout) : null;
  const out = json?.hookSpecificOutput ?? {};
  return {
    deny: out.permissionDecision === "deny" ? out.permissionDecisionReason as string : null,
    context: out.additionalContext as string | undefined,
    system: json?.systemMessage as string | undefined,
    stdout: ran.stdout,
    stderr: ran.stderr,
  };
}

Deno.test("the gate's guards through the hook command", async (t) => {
  const server = await startTestServer();
  const dir = await tempGitRepo({ "pyproject.toml": PYPROJECT, "requirements.txt": "requests\n" });
  try {
    await writePolicyToml(dir, server.url, "auto_request_approval = false\nfail_open = false\n");

    await t.step("fail_open = false: a command it cannot read is denied, saying what", async () => {
      const out = await hook(dir, bash(dir, "pip install $PACKAGE"));
      assert.match(out.deny ?? "", /could not read this \(cannot tell which package `\$PACKAGE`/);
    });

    await t.step("the crash classes of issue #27 are read, not ignored", async () => {
      for (
        const command of [
          "PIP_INDEX=https://pypi.org/simple; pip install -i $PIP_INDEX pycrypto",
          "API_DIR=$(pwd)\ncd $API_DIR\npip install pycrypto",
          'pipx install pycrypto ${PYTHON_PATH:+--python "$PYTHON_PATH"}',
          "pip install git+https://github.com/x/tool.git#egg=tool pycrypto",
          'for p in requests pycrypto; do pip install "$p"; done',
        ]
      ) {
        const out = await hook(dir, bash(dir, command));
        assert.match(out.deny ?? "", /pycrypto is DENIED \(DENIAL_BANNED\)/, command);
        assert.doesNotMatch(out.stderr, /ignored/, command);
      }
    });

    await t.step("shell writes into manifests are applied to a copy and gated", async () => {
      for (
        const command of [
          "echo pycrypto >> requirements.txt",
          "cat >> requirements.txt <<'EOF'\npycrypto==2.6.1\nEOF",
          "printf 'pycrypto\\n' | tee -a requirements.txt",
          `sed -i 's/"requests>=2.31",/"requests>=2.31", "pycrypto",/' pyproject.toml`,
        ]
      ) {
        const out = await hook(dir, bash(dir, command));
        assert.match(out.deny ?? "", /pycrypto(==2\.6\.1)? is DENIED/, command);
      }
      assert.equal(await Deno.readTextFile(join(dir, "requirements.txt")), "requests\n");
    });

    await t.step("messages: each denied package with its own request line and JSON", async () => {
      const out = await hook(dir, bash(dir, "pip install pycrypto nose"));
      const reason = out.deny ?? "";
      assert.match(reason, /Choose the replacement cryptography, or if pycrypto is truly needed/);
      assert.match(reason, /policy request-approval pycrypto /);
      assert.match(reason, /policy request-approval nose /);
      const json = JSON.parse(/policyd: (\{.*\})/.exec(reason)![1]);
      assert.deepEqual(json.denied.map((d: { package: string }) => d.package), [
        "pycrypto",
        "nose",
      ]);
      assert.equal(json.denied[0].category, "DENIAL_BANNED");
      assert.equal(json.denied[0].replacement, "cryptography");
    });

    await t.step("an agent never approves and never edits the gate", async () => {
      for (
        const command of [
          "policy approve pycrypto",
          `curl -X POST ${server.url}/api/v1/registry/proposals -d '{"package":"pycrypto"}'`,
        ]
      ) {
        assert.match((await hook(dir, bash(dir, command))).deny ?? "", /would approve/, command);
      }
      for (
        const command of [
          "echo 'fail_open = true' >> .policy.toml",
          "rm .claude/settings.json",
          "sed -i 's/policy hook//' .git/hooks/pre-commit",
        ]
      ) {
        const out = await hook(dir, bash(dir, command));
        assert.match(out.deny ?? "", /configures the dependency policy gate/, command);
      }
    });

    await t.step("other indexes are denied once the project installs through policyd", async () => {
      const command = "pip install -i https://mirror.example/simple requests";
      assert.equal((await hook(dir, bash(dir, command))).deny, null, "no policy index yet");
      await Deno.writeTextFile(
        join(dir, "pyproject.toml"),
        PYPROJECT + `\n[[tool.uv.index]]\nurl = "${server.url}/p/demo/simple/"\ndefault = true\n`,
      );
      const out = await hook(dir, bash(dir, command));
      assert.match(out.deny ?? "", /another package index \(https:\/\/mirror\.example\/simple\)/);
      for (const other of ["UV_DEFAULT_INDEX=https://e.example/simple uv add requests"]) {
        assert.match((await hook(dir, bash(dir, other))).deny ?? "", /another package index/);
      }
      const own = `pip install --index-url ${server.url}/simple/ requests`;
      assert.equal((await hook(dir, bash(dir, own))).deny, null, "policyd's own index");
    });

    await t.step("fail_open = true: what it cannot read is a visible warning", async () => {
      await writePolicyToml(dir, server.url, "auto_request_approval = false\nfail_open = true\n");
      const out = await hook(dir, bash(dir, "pip install $PACKAGE"));
      assert.equal(out.deny, null);
      assert.match(out.system ?? "", /^Warning: the dependency policy gate could not read/);
      assert.equal(out.context, out.system);
    });

    await t.step("a .policy.toml the client cannot use denies, in every mode", async () => {
      await writePolicyToml(dir, server.url, "fail_open = true\nfial_open = true\n");
      const out = await hook(dir, bash(dir, "pip install requests"));
      assert.match(out.deny ?? "", /configuration is unusable: Invalid .*\.policy\.toml/);
      await writePolicyToml(dir, server.url, "fail_open = true\n");
      await Deno.mkdir(join(dir, "svc"));
      await Deno.writeTextFile(join(dir, "svc/.policy.toml"), `server_url = 42\n`);
      const sub = await hook(dir, bash(dir, "pip install requests", join(dir, "svc")));
      assert.match(sub.deny ?? "", /svc\/\.policy\.toml/);
      // a command that installs nothing is not judged at all
      const ls = await hook(dir, bash(dir, "ls -la && git status", join(dir, "svc")));
      assert.equal(ls.stdout, "");
    });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
