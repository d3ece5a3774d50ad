import { deepStrictEqual, ok } from "node:assert/strict";
import { REPO_ROOT } from "../helpers/cli.ts";

/** Local modules (and npm packages) reachable from an entry point, per `deno info --json`. */
async function graph(entry: string): Promise<{ local: string[]; npm: string[] }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", `${REPO_ROOT}/deno.json`, `${REPO_ROOT}/${entry}`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  const local: string[] = [];
  const npm = new Set<string>();
  for (
    const mod of info.modules as Array<
      { specifier: string; dependencies?: Array<{ specifier: string }> }
    >
  ) {
    if (mod.specifier.startsWith("file://")) {
      local.push(mod.specifier.slice(`file://${REPO_ROOT}/`.length));
    }
    for (const dep of mod.dependencies ?? []) {
      if (dep.specifier.startsWith("node:")) npm.add(dep.specifier);
    }
  }
  for (const name of Object.keys(info.npmPackages ?? {})) npm.add(name.replace(/@[^@]+$/, ""));
  return { local, npm: [...npm] };
}

Deno.test("src/workflows imports nothing from the rest of policyd", async () => {
  const { local } = await graph("src/workflows/mod.ts");
  ok(local.includes("src/workflows/agent_test_client.ts"), "the graph was read");
  deepStrictEqual(local.filter((path) => !path.startsWith("src/workflows/")), []);
});

Deno.test("the pure core imports no Deno or node API, no HTTP and no database", async () => {
  const { local, npm } = await graph("src/core/evaluate.ts");
  ok(local.includes("src/core/license_policy.ts"), "the graph was read");
  deepStrictEqual(local.filter((path) => !path.startsWith("src/core/")), []);
  deepStrictEqual(npm.filter((name) => name.startsWith("node:")), []);
  for (const path of local) {
    const text = await Deno.readTextFile(`${REPO_ROOT}/${path}`);
    deepStrictEqual(text.match(/\bDeno\.\w+/g) ?? [], [], `${path} touches the Deno namespace`);
  }
});
