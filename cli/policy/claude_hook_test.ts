import assert from "node:assert/strict";
import { join } from "node:path";
import { handlePreToolUse, handleSessionStart } from "./hooks/claude.ts";
import type { HookDeps, HookEvent } from "./hooks/claude.ts";
import type { EvaluationResult, PackageQuery } from "./api_client.ts";
import { resolveConfig } from "./config.ts";
import { ClientError, ServerError, ServerUnreachable } from "./exit_codes.ts";

const ROOT = "/repo";
const PYPROJECT = join(ROOT, "pyproject.toml");
const BEFORE = `[project]\nname = "shop"\ndependencies = ["requests>=2.31"]\n`;

const VERDICTS: Record<string, Partial<EvaluationResult>> = {
  requests: { verdict: "ALLOWED", registry_status: "preferred" },
  pycrypto: {
    verdict: "DENIED",
    reason: "unmaintained since 2013",
    denial_category: "DENIAL_BANNED",
    replacement: "cryptography",
  },
  "left-pad": { verdict: "PROVISIONALLY_ALLOWED", reason: "license UNKNOWN" },
};

/** A fake client answering from VERDICTS and recording its calls. */
function fakeClient(fail?: ClientError) {
  const calls: { batches: PackageQuery[][]; approvals: Array<Record<string, unknown>> } = {
    batches: [],
    approvals: [],
  };
  return {
    calls,
    evaluateBatch(packages: PackageQuery[]): Promise<EvaluationResult[]> {
      calls.batches.push(packages);
      if (fail) return Promise.reject(fail);
      return Promise.resolve(packages.map((p) => ({
        package: p.package,
        version: p.version ?? null,
        verdict: "ALLOWED" as const,
        reason: "",
        cves: [],
        ...VERDICTS[p.package],
      } as EvaluationResult)));
    },
    requestApproval(req: { package: string; rationale: string }) {
      calls.approvals.push(req);
      return Promise.resolve({
        id: 41,
        package: req.package,
        status: "PENDING_REVIEW",
        message: "filed for review (id 41); not approved yet",
      });
    },
  };
}

function deps(client: HookDeps["client"], content: string | null = BEFORE): HookDeps {
  return { client, readFile: (p) => (p === PYPROJECT ? content : null) };
}

function edit(tool: string, input: Record<string, unknown>): HookEvent {
  return {
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: { file_path: PYPROJECT, ...input },
  };
}

const single = await resolveConfig({ project: "shop" }, ROOT, null);
const org = await resolveConfig({ project: "shop", mode: "org" }, ROOT, null);

Deno.test("handlePreToolUse() ignores other commands and other files", async () => {
  const client = fakeClient();
  for (const command of ["ls", "echo 'pip install pycrypto'", "pip download pycrypto"]) {
    assert.equal(
      await handlePreToolUse(
        { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } },
        ROOT,
        single,
        deps(client),
      ),
      null,
    );
  }
  assert.equal(
    await handlePreToolUse(
      edit("Write", { file_path: "/repo/README.md", content: "" }),
      ROOT,
      single,
      deps(client),
    ),
    null,
  );
  assert.equal(client.calls.batches.length, 0);
});

Deno.test("handlePreToolUse() gates a sub-project's pyproject.toml and shell installs", async () => {
  const client = fakeClient();
  const sub = await handlePreToolUse(
    edit("Write", {
      file_path: "/repo/sub/pyproject.toml",
      content: `[project]\nname = "sub"\ndependencies = ["pycrypto"]\n`,
    }),
    ROOT,
    single,
    deps(client),
  );
  assert.equal(sub?.[0], "deny");
  const bash = await handlePreToolUse(
    {
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "cd sub && uv add requests 'pycrypto==2.6.1'" },
    },
    ROOT,
    single,
    deps(client),
  );
  assert.equal(bash?.[0], "deny");
  assert.match(bash![1]!, /This command is blocked/);
  assert.deepEqual(client.calls.batches.at(-1), [
    { package: "requests", version: null },
    { package: "pycrypto", version: "2.6.1" },
  ]);
});

Deno.test("handlePreToolUse() denies an Edit adding a banned package, with reason and replacement", async () => {
  const client = fakeClient();
  const result = await handlePreToolUse(
    edit("Edit", {
      old_string: `"requests>=2.31"`,
      new_string: `"requests>=2.31", "pycrypto==2.6.1"`,
    }),
    ROOT,
    single,
    deps(client),
  );
  assert.ok(result);
  assert.equal(result[0], "deny");
  assert.match(
    result[1]!,
    /pycrypto==2\.6\.1 is DENIED \(DENIAL_BANNED\): unmaintained since 2013; use cryptography instead/,
  );
  assert.deepEqual(client.calls.batches, [[{ package: "pycrypto", version: "2.6.1" }]]);
});

Deno.test("handlePreToolUse() evaluates the added deps of a Write in every group (optional ones too)", async () => {
  const client = fakeClient();
  const content =
    `[project]\nname = "shop"\ndependencies = ["requests>=2.32", "left-pad"]\n[project.optional-dependencies]\ndev = ["black"]\n`;
  const result = await handlePreToolUse(edit("Write", { content }), ROOT, single, deps(client));
  assert.deepEqual(client.calls.batches, [[{ package: "requests>=2.32", version: null }, {
    package: "left-pad",
    version: null,
  }, { package: "black", version: null }]]);
  assert.ok(result);
  assert.equal(result[0], "allow");
  assert.match(result[1]!, /left-pad is PROVISIONALLY_ALLOWED/);
  assert.match(result[1]!, /filed for review \(id 41\); not approved yet/);
  assert.match(result[1]!, /an operator has to approve it/);
  assert.equal(client.calls.approvals.length, 1);
  assert.equal(client.calls.approvals[0].package, "left-pad");
});

Deno.test("handlePreToolUse() files no approval request when auto_request_approval is off", async () => {
  const client = fakeClient();
  const config = { ...single, auto_request_approval: false };
  const result = await handlePreToolUse(
    edit("MultiEdit", {
      edits: [{ old_string: `"requests>=2.31"`, new_string: `"requests>=2.31", "left-pad"` }],
    }),
    ROOT,
    config,
    deps(client),
  );
  assert.equal(result?.[0], "allow");
  assert.match(result![1]!, /policy request-approval left-pad/);
  assert.equal(client.calls.approvals.length, 0);
});

Deno.test("handlePreToolUse() says nothing when every change is ALLOWED or deps are unchanged", async () => {
  const client = fakeClient();
  assert.deepEqual(
    await handlePreToolUse(
      edit("Edit", { old_string: "2.31", new_string: "2.32" }),
      ROOT,
      single,
      deps(client),
    ),
    ["allow", null],
  );
  assert.deepEqual(
    await handlePreToolUse(
      edit("Edit", { old_string: `name = "shop"`, new_string: `name = "shop2"` }),
      ROOT,
      single,
      deps(client),
    ),
    ["allow", null],
  );
  assert.equal(client.calls.batches.length, 1);
});

Deno.test("handlePreToolUse() stays silent on server trouble under fail-open and denies under fail-closed", async (t) => {
  const change = edit("Edit", { old_string: "2.31", new_string: "2.32" });
  for (
    const error of [
      new ServerUnreachable("http://127.0.0.1:8765", "refused"),
      new ServerError(500, "boom"),
    ]
  ) {
    await t.step(`${error.name} fail-open`, async () => {
      assert.deepEqual(await handlePreToolUse(change, ROOT, single, deps(fakeClient(error))), [
        "allow",
        null,
      ]);
    });
    await t.step(`${error.name} fail-closed`, async () => {
      const result = await handlePreToolUse(change, ROOT, org, deps(fakeClient(error)));
      assert.equal(result?.[0], "deny");
      assert.ok(result![1]!.includes("http://127.0.0.1:8765"));
    });
  }
  await t.step("missing org API key under fail-closed", async () => {
    const result = await handlePreToolUse(
      change,
      ROOT,
      org,
      deps(new ClientError("config", "no key in POLICY_API_KEY")),
    );
    assert.equal(result?.[0], "deny");
    assert.match(result![1]!, /POLICY_API_KEY/);
  });
});

Deno.test("handleSessionStart() lists denied and provisional deps, or returns null", async () => {
  const content = `[project]\ndependencies = ["requests", "pycrypto", "left-pad"]\n`;
  const context = await handleSessionStart(ROOT, single, deps(fakeClient(), content));
  assert.ok(context);
  assert.match(context, /pycrypto is DENIED/);
  assert.match(context, /left-pad is PROVISIONALLY_ALLOWED/);
  assert.match(context, /policy request-approval/);
  assert.ok(!context.includes("requests is"));
  assert.equal(
    await handleSessionStart(
      ROOT,
      single,
      deps(fakeClient(), `[project]\ndependencies = ["requests"]\n`),
    ),
    null,
  );
  assert.equal(await handleSessionStart(ROOT, single, deps(fakeClient(), null)), null);
  assert.equal(
    await handleSessionStart(
      ROOT,
      single,
      deps(fakeClient(new ServerUnreachable("u", "x")), content),
    ),
    null,
  );
});

Deno.test("an edit whose old_string does not match exactly is judged by the lines it inserts: deny only", async () => {
  const client = fakeClient();
  // Editors such as Gemini's `replace` correct a near-miss old_string and apply the edit anyway.
  const denied = await handlePreToolUse(
    edit("Edit", {
      old_string: `dependencies = ["requests>=2.31"]  `,
      new_string: `dependencies = [\n  "requests>=2.31",\n  "pycrypto==2.6.1",\n]`,
    }),
    ROOT,
    single,
    deps(client),
  );
  assert.equal(denied?.[0], "deny");
  assert.deepEqual(
    client.calls.batches.at(-1),
    [{ package: "pycrypto", version: "2.6.1" }],
    "requests is already declared with the same specifier",
  );
  const quiet = await handlePreToolUse(
    edit("Edit", { old_string: `name = "nope"`, new_string: `name = "shop"\n  "left-pad",` }),
    ROOT,
    single,
    deps(client),
  );
  assert.deepEqual(quiet, ["allow", null], "a loosely read provisional package says nothing");
  assert.equal(client.calls.approvals.length, 0);
  assert.deepEqual(client.calls.batches.at(-1), [{ package: "left-pad", version: null }]);
});

Deno.test("VS Code's insert_edit_into_file is judged by the dependencies its sketch adds: deny only", async () => {
  const client = fakeClient();
  const sketch = (deps: string) =>
    ({
      hookEventName: "PreToolUse",
      tool_name: "insert_edit_into_file",
      tool_input: {
        filePath: PYPROJECT,
        explanation: "add a dependency",
        code: `[project]\n# ...existing code...\ndependencies = [${deps}]\n# ...existing code...\n`,
      },
    }) as unknown as HookEvent;
  const denied = await handlePreToolUse(
    sketch(`"requests>=2.31", "pycrypto==2.6.1"`),
    ROOT,
    single,
    deps(client),
  );
  assert.equal(denied?.[0], "deny");
  assert.match(denied?.[1] ?? "", /pycrypto/);
  assert.deepEqual(
    client.calls.batches.at(-1),
    [{ package: "pycrypto", version: "2.6.1" }],
    "requests is already declared with the same specifier",
  );
  // A fragment without its table header is read as the lines of the [project] table.
  const fragment = await handlePreToolUse(
    {
      hookEventName: "PreToolUse",
      tool_name: "insert_edit_into_file",
      tool_input: { filePath: PYPROJECT, code: `dependencies = ["requests>=2.31", "pycrypto"]` },
    } as unknown as HookEvent,
    ROOT,
    single,
    deps(client),
  );
  assert.equal(fragment?.[0], "deny");
  const quiet = await handlePreToolUse(
    sketch(`"requests>=2.31", "left-pad"`),
    ROOT,
    single,
    deps(client),
  );
  assert.deepEqual(quiet, ["allow", null], "a sketched provisional package says nothing");
  assert.equal(client.calls.approvals.length, 0);
});
