import assert from "node:assert/strict";
import { run } from "../policy.ts";
import { bufferedIo, REPO_ROOT } from "./_testing.ts";

const fakeIo = (cwd: string) => bufferedIo(cwd);

Deno.test("run() maps usage errors to 64 with one line on stderr", async (t) => {
  const dir = Deno.makeTempDirSync();
  const table: Array<[string[], RegExp]> = [
    [["check"], /^policy: missing required argument 'package'\n$/],
    [["check", "x", "--jsn"], /^policy: unknown option '--jsn' \(Did you mean --json\?\)\n$/],
    [["nope"], /^policy: unknown command 'nope'\n$/],
    [["request-approval", "x"], /^policy: required option '--rationale <text>' not specified\n$/],
    [["request-approval", "x", "--rationale", " "], /^policy: --rationale must not be empty\n$/],
    [
      ["init", "--mode", "team", "--yes"],
      /^policy: option '--mode <mode>' argument 'team' is invalid/,
    ],
    [["init", "--server-url", "nope", "--yes"], /expected an http\(s\) URL/],
    [["init"], /^policy: init needs --yes when standard input is not a terminal\n$/],
  ];
  for (const [args, pattern] of table) {
    await t.step(args.join(" "), async () => {
      const io = fakeIo(dir);
      assert.equal(await run(args, io), 64);
      assert.match(io.err, pattern);
    });
  }
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("run() exits 0 for --help and --cli-version and 64 with usage for no arguments", async () => {
  const io = fakeIo("/");
  assert.equal(await run(["--help"], io), 0);
  assert.match(io.out, /Usage: policy/);
  assert.equal(await run(["--cli-version"], io), 0);
  assert.match(io.out, /0\.1\.0/);
  const bare = fakeIo("/");
  assert.equal(await run([], bare), 64);
  assert.match(bare.err, /Usage: policy/);
});

Deno.test("run() maps a project without pyproject.toml or lock file in audit to 66", async () => {
  const dir = Deno.makeTempDirSync();
  const io = fakeIo(dir);
  assert.equal(await run(["audit"], io), 66);
  assert.match(io.err, /^policy: No pyproject\.toml, lock file or requirements file in /);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("hook exits 0 with no output on malformed input", async () => {
  const io = { ...fakeIo("/"), readStdin: () => Promise.resolve("{") };
  assert.equal(await run(["hook"], io), 0);
});

Deno.test("the client's module graph contains no server code", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", `${REPO_ROOT}/deno.json`, `${REPO_ROOT}/cli/policy.ts`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  // npmPackages lists the whole lock file; the graph's npm roots are the `npm` modules.
  const specifiers: string[] = info.modules.map((m: { specifier: string }) => m.specifier);
  const npmRoots = info.modules.filter((m: { kind: string }) => m.kind === "npm")
    .map((m: { npmPackage: string }) => m.npmPackage).sort();
  assert.deepEqual([...new Set(npmRoots.map((p: string) => p.replace(/@[^@]+$/, "")))], [
    "@modelcontextprotocol/client",
    "@modelcontextprotocol/server",
    "@renovatebot/pep440",
    "commander",
    "pip-requirements-js",
    "shell-quote",
    "smol-toml",
    "yaml", // .pre-commit-config.yaml (init --precommit-framework, status), environment.yml; lazily
    "zod",
  ]);
  assert.ok(specifiers.some((s) => s.endsWith("/cli/policy/api_client.ts")), "graph was resolved");
  const forbidden = specifiers.filter((s) =>
    /\/src\/(store|http|server|registry|lookups|scanner|proposers|auth|cache)\//.test(s) ||
    /node:sqlite|octokit|\bhono\b|redis/.test(s)
  );
  assert.deepEqual(forbidden, []);
  const deps = info.modules.flatMap((m: { dependencies?: Array<{ specifier: string }> }) =>
    (m.dependencies ?? []).map((d) => d.specifier)
  );
  assert.ok(!deps.includes("node:sqlite"));
});
