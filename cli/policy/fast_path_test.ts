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

/** Modules `entry` loads before it runs: static imports only, followed transitively. */
async function staticGraph(entry: string): Promise<string[]> {
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
    }
  };
  visit(info.roots[0]);
  return [...seen].map((url) => url.replace(/^file:\/\/.*?\/(cli|src)\//, "$1/"));
}

Deno.test("policy check loads no command-line framework, requirement parser or API contract it does not use", async () => {
  const graph = await staticGraph("./commands/check.ts");
  assert.ok(graph.includes("cli/policy/api_client.ts"), "the graph was read");
  const heavy = graph.filter((m) =>
    /commander|pip-requirements-js|@renovatebot|src\/api\/(mod|approvals|reports|registry|mcp)\.ts|node:/
      .test(m)
  );
  assert.deepEqual(heavy, [], "see docs/performance.md, Client start-up");
});
