import assert from "node:assert/strict";
import { fastCommand } from "./fast_path.ts";

Deno.test("the fast path takes only the documented forms of check, hook and precommit", () => {
  for (
    const args of [
      ["check", "requests"],
      ["check", "requests==2.32.3", "--json"],
      ["check", "requests", "--version", "2.32.3", "--agent-model", "m", "--agent-version=1"],
      ["hook"],
      ["hook", "--agent", "cursor"],
      ["hook", "--agent=codex"],
      ["precommit"],
      ["precommit", "--all"],
    ]
  ) {
    assert.equal(typeof fastCommand(args), "function", args.join(" "));
  }
});

Deno.test("everything else goes to commander (help, usage errors, other commands, new flags)", () => {
  for (
    const args of [
      [],
      ["check"],
      ["check", "a", "b"],
      ["check", "requests", "--help"],
      ["check", "requests", "-h"],
      ["check", "requests", "--verison", "1"],
      ["check", "requests", "--version"],
      ["check", "requests", "--version", "--json"],
      ["check", "requests", "--json=yes"],
      ["check", "requests", "--json", "--json"],
      ["check", "--", "requests"],
      ["hook", "--help"],
      ["hook", "--agent", "notepad"],
      ["hook", "extra"],
      ["precommit", "--all=yes"],
      ["status"],
      ["mcp"],
      ["--cli-version"],
    ]
  ) {
    assert.equal(fastCommand(args), null, args.join(" "));
  }
});

/**
 * Modules `entry` loads before it runs: static imports only, followed
 * transitively. `dynamic` collects the `import("literal")` calls of those
 * modules: Deno reads and analyses their targets when it loads the graph
 * although they run later (and sets up node_modules for an npm package),
 * which is what `lazy_import.ts` avoids.
 */
async function staticGraph(entry: string, dynamic: string[] = []): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(entry, import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  type Dep = { isDynamic?: boolean; code?: { specifier: string }; type?: { specifier: string } };
  const byUrl = new Map<string, { dependencies?: Dep[] }>(
    info.modules.map((m: { specifier: string }) => [m.specifier, m]),
  );
  const seen = new Set<string>();
  const visit = (url: string) => {
    if (seen.has(url)) return;
    seen.add(url);
    for (const dep of byUrl.get(url)?.dependencies ?? []) {
      if (!dep.isDynamic && dep.code) visit(dep.code.specifier);
      else if (dep.code) dynamic.push(dep.code.specifier);
    }
  };
  visit(info.roots[0]);
  return [...seen].map((url) => url.replace(/^file:\/\/.*?\/(cli|src)\//, "$1/"));
}

/** What must not load on the path of `policy check` (docs/performance.md, "Client start-up"). */
const HEAVY =
  /npm:.*(zod|smol-toml|commander|pip-requirements-js|@renovatebot|shell-quote)|node:|src\/api\/(?!evaluate_limits\.ts|paths\.ts|header_names\.ts)/;

const PATHS: Array<[string, string]> = [
  ["policy (the entry point, before a command is chosen)", "../policy.ts"],
  ["policy check", "./commands/check.ts"],
  [
    "policy hook (before it reads a manifest, a shell command or a session start)",
    "./commands/hook.ts",
  ],
  [
    "policy hook (a tool call that may matter, before the reader loads)",
    "./commands/hook_decide.ts",
  ],
  ["policy precommit (before a staged manifest is found)", "./commands/precommit.ts"],
];

Deno.test("check, hook and precommit load no zod, TOML parser, command-line framework, requirement parser, Node module or API contract", async (t) => {
  for (const [name, entry] of PATHS) {
    await t.step(name, async () => {
      const dynamic: string[] = [];
      const graph = await staticGraph(entry, dynamic);
      assert.ok(graph.includes("cli/policy/lazy_import.ts"), "the graph was read");
      assert.deepEqual(
        graph.filter((m) => HEAVY.test(m)),
        [],
        "see docs/performance.md, Client start-up",
      );
      assert.deepEqual(
        dynamic,
        [],
        'use lazyImport(): Deno loads import("literal") targets up front',
      );
    });
  }
});

Deno.test("the entry point loads no command up front, and check validates its answer", async () => {
  const entry = await staticGraph("../policy.ts");
  assert.deepEqual(entry.filter((m) => /commands\/|program\.ts|api_client/.test(m)), []);
  const check = await staticGraph("./commands/check.ts");
  assert.ok(check.includes("cli/policy/generated/config_file.js"));
  // The answer's validator loads while the request is under way (api_client.ts).
  const client = await Deno.readTextFile(new URL("./api_client.ts", import.meta.url));
  assert.match(client, /lazyImport<typeof import\("\.\/generated\/evaluation\.js"\)>/);
  assert.doesNotMatch(check.join("\n"), /generated\/(evaluation|batch|hook_payload)\.js/);
});
