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

Deno.test("the workflow library (packages/workflows) imports nothing of policyd and no web framework", async () => {
  for (const entry of ["mod.ts", "runner.ts", "serve.ts", "export.ts"]) {
    const { local } = await graph(`packages/workflows/${entry}`);
    ok(local.includes(`packages/workflows/${entry}`), "the graph was read");
    deepStrictEqual(local.filter((path) => !path.startsWith("packages/workflows/")), []);
    for (const path of local) {
      const text = await Deno.readTextFile(`${REPO_ROOT}/${path}`);
      const bare = [...text.matchAll(/^(?:import|export)[^;]*?from\s+["']([^"'.][^"']*)["']/gm)]
        .map((m) => m[1]).filter((name) => !name.startsWith("node:"));
      deepStrictEqual(bare.filter((name) => !["zod", "yaml"].includes(name)), [], path);
    }
  }
});

Deno.test("the pure core imports no Deno or node API, no HTTP and no database", async () => {
  const { local, npm } = await graph("src/core/evaluate.ts");
  ok(local.includes("src/core/license_policy.ts"), "the graph was read");
  deepStrictEqual(local.filter((path) => !path.startsWith("src/core/")), []);
  deepStrictEqual(npm.filter((name) => name.startsWith("node:")), []);
  // registryVerdict and factsVerdict (and every helper) are reached from evaluate.ts.
  for (
    const file of [
      "registry_verdict.ts",
      "facts_verdict.ts",
      "facts_rules.ts",
      "threat_rules.ts",
      "popular_index.ts",
      "reasons.ts",
      "exceptions.ts",
    ]
  ) {
    ok(local.includes(`src/core/${file}`), `src/core/${file} is part of the checked graph`);
  }
  for (const path of local) {
    const text = await Deno.readTextFile(`${REPO_ROOT}/${path}`);
    deepStrictEqual(text.match(/\bDeno\.\w+/g) ?? [], [], `${path} touches the Deno namespace`);
    const bare = [...text.matchAll(/^import[^;]*?from\s+["']([^"'.][^"']*)["']/gm)].map((m) =>
      m[1]
    );
    const io = bare.filter((name) => /^(hono|redis|@octokit|pg|postgres|npm:)/.test(name));
    deepStrictEqual(io, [], `${path} imports an HTTP, cache or database package`);
  }
});

Deno.test("the wire contract (src/api) imports only zod and the pure core", async () => {
  const { local } = await graph("src/api/openapi.ts");
  ok(local.includes("src/api/evaluate.ts"), "the graph was read");
  deepStrictEqual(
    local.filter((path) => !path.startsWith("src/api/") && !path.startsWith("src/core/")),
    [],
  );
  for (const path of local.filter((p) => p.startsWith("src/api/"))) {
    const text = await Deno.readTextFile(`${REPO_ROOT}/${path}`);
    const bare = [...text.matchAll(/from\s+["']([^"'.][^"']*)["']/g)].map((m) => m[1]);
    deepStrictEqual(bare.filter((name) => name !== "zod"), [], `${path} imports a package`);
  }
});

/** Relative import specifiers (static, re-export and dynamic) of a source text. */
function importsOf(text: string): string[] {
  const found = text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["'](\.{1,2}\/[^"']+)["']/g);
  return [...found].map((m) => m[1]);
}

Deno.test("the client imports from the server side only src/api and src/core/names", async () => {
  const files: string[] = ["cli/policy.ts"];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(`${REPO_ROOT}/${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$|^_testing\.ts$/.test(entry.name)) {
        files.push(path);
      }
    }
  };
  await walk("cli/policy");
  const crossings: string[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(`${REPO_ROOT}/${file}`);
    for (const specifier of importsOf(text)) {
      const target = new URL(specifier, `file://${REPO_ROOT}/${file}`).pathname
        .slice(REPO_ROOT.length + 1);
      if (!target.startsWith("src/")) continue;
      if (target.startsWith("src/api/") || target === "src/core/names.ts") continue;
      crossings.push(`${file} → ${target}`);
    }
  }
  ok(files.includes("cli/policy/api_client.ts"), "the client's files were read");
  deepStrictEqual(crossings, []);
});

Deno.test("dashboards/ does not import src/http; the app does not import dashboards/", async () => {
  const { local } = await graph("dashboards/routes.tsx");
  ok(local.includes("dashboards/pages/audit.tsx"), "the graph was read");
  deepStrictEqual(local.filter((path) => path.startsWith("src/http/")), []);
  const app = await graph("src/http/app.ts");
  ok(app.local.includes("src/http/routes/reports.ts"), "the graph was read");
  deepStrictEqual(app.local.filter((path) => path.startsWith("dashboards/")), []);
});

/** Every TypeScript file under a folder of the repository, as repository paths. */
async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(`${REPO_ROOT}/${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...await sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files.sort();
}

/** `file → target` for every relative import of `files` (repository paths). */
async function edges(files: string[]): Promise<Array<[string, string]>> {
  const found: Array<[string, string]> = [];
  for (const file of files) {
    const text = await Deno.readTextFile(`${REPO_ROOT}/${file}`);
    for (const specifier of importsOf(text)) {
      const target = new URL(specifier, `file://${REPO_ROOT}/${file}`).pathname
        .slice(REPO_ROOT.length + 1);
      found.push([file, target]);
    }
  }
  return found;
}

Deno.test("settings end at the composition root: under src/ only the root imports the joined settings", async () => {
  const files = await sourceFiles("src");
  ok(files.includes("src/lookups/osv.ts"), "the sources were read");
  const importers = (await edges([...files, ...await sourceFiles("dashboards")]))
    .filter(([, target]) => target === "src/settings.ts")
    .map(([file]) => file);
  ok(importers.includes("src/server.ts"), "the root's own import is seen");
  // The root: server.ts, the library entry re-exporting it (mod.ts) and the settings' documentation
  // (settings_doc.ts, every variable of every area). Tests may read the joined schema.
  const root = ["src/server.ts", "src/mod.ts", "src/settings_doc.ts"];
  deepStrictEqual(
    importers.filter((f) => !root.includes(f) && !/_test\.tsx?$/.test(f)),
    [],
    "adapters and services take their own area's options",
  );
  // The config folder is a leaf: areas import it, it imports none of them (no cycle through it).
  const fromConfig = (await edges(files.filter((f) => f.startsWith("src/config/"))))
    .filter(([, target]) => !target.startsWith("src/config/"));
  deepStrictEqual(fromConfig, []);
  // No adapter names the joined type either (e.g. through a re-export).
  const production = files.filter((f) => !/_test\.tsx?$/.test(f));
  for (const file of production.filter((f) => !/^src\/(server|mod|settings(_doc)?)\.ts$/.test(f))) {
    const text = await Deno.readTextFile(`${REPO_ROOT}/${file}`);
    ok(
      !/\btype Settings\b|\bSettings\s*[,}]\s*from/.test(text),
      `${file} names the joined Settings`,
    );
  }
});

/** Static imports of a source text: the target and whether the import is type-only (erased). */
function staticImports(text: string): Array<{ specifier: string; typeOnly: boolean }> {
  const found = text.matchAll(
    /^(?:import|export)\s+(type\s+)?[^;]*?from\s+["'](\.{1,2}\/[^"']+)["']/gms,
  );
  return [...found].map((m) => ({ specifier: m[2], typeOnly: m[1] !== undefined }));
}

Deno.test("services depend on adapter interfaces, not on adapters", async () => {
  const services = ["src/evaluation", "src/approvals", "src/reports", "src/scanner", "src/alerts"];
  const adapters = /^src\/(lookups|cache|registry|proposers|store|auth)\//;
  // What a service may run from an adapter folder: its interfaces and options, and pure decorators
  // over those interfaces (no I/O of their own).
  const interfaces = /\/(types|settings)\.ts$|^src\/lookups\/deadline\.ts$/;
  // The composition of the approvals capability, called by src/server.ts only.
  const composition = ["src/approvals/wiring.ts"];
  const files: string[] = [];
  for (const dir of services) files.push(...await sourceFiles(dir));
  const production = files.filter((f) => !/_test\.tsx?$/.test(f) && !composition.includes(f));
  ok(production.includes("src/scanner/scan_pass.ts"), "the services were read");
  const crossings: string[] = [];
  for (const file of production) {
    const text = await Deno.readTextFile(`${REPO_ROOT}/${file}`);
    for (const { specifier, typeOnly } of staticImports(text)) {
      const target = new URL(specifier, `file://${REPO_ROOT}/${file}`).pathname
        .slice(REPO_ROOT.length + 1);
      if (typeOnly || !adapters.test(target) || interfaces.test(target)) continue;
      crossings.push(`${file} → ${target}`);
    }
  }
  deepStrictEqual(crossings, [], "inject the adapter through its interface instead");
});

Deno.test("route paths come from the contract: the client and the app write none by hand", async () => {
  const { API_ROUTES, fullPath } = await import("../../src/api/mod.ts");
  const { API_PATHS, apiPath } = await import("../../src/api/paths.ts");
  const contracted = new Set(API_ROUTES.map(fullPath));
  for (const path of Object.values(API_PATHS)) {
    ok(contracted.has(apiPath(path)), `${path} is a contract's path`);
  }
  for (const file of ["cli/policy/api_client.ts", "src/http/app.ts"]) {
    const code = (await Deno.readTextFile(`${REPO_ROOT}/${file}`))
      .split("\n").filter((line) => !/^\s*(\*|\/\/)/.test(line)).join("\n");
    deepStrictEqual(code.match(/["'`]\/api\/v1[^"'`]*["'`]/g) ?? [], [], file);
  }
});

/** Source files allowed over {@link MAX_SOURCE_LINES}: data tables only, each with its reason. */
const DATA_TABLES: Record<string, string> = {
  "cli/policy/generated/batch.js": "generated from the evaluation schema (tools/gen_validators.ts)",
  "cli/policy/generated/evaluation.js":
    "generated from the evaluation schema (tools/gen_validators.ts)",
  "cli/policyd/templates/env_example.ts": "the .env.example template text",
};

/** The longest a non-data source file may be. */
const MAX_SOURCE_LINES = 300;

/** Every production source file (no tests) under a folder, as repository paths. */
async function productionFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(`${REPO_ROOT}/${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) {
      if (entry.name !== "node_modules") files.push(...await productionFiles(path));
    } else if (/\.(tsx?|m?js)$/.test(entry.name) && !/_test(_suite)?\.tsx?$/.test(entry.name)) {
      files.push(path);
    }
  }
  return files.sort();
}

Deno.test("no source file but a data table is over 300 lines", async () => {
  const files: string[] = [];
  for (const dir of ["src", "cli", "dashboards", "tools", "packages"]) {
    files.push(...await productionFiles(dir));
  }
  ok(files.includes("src/server.ts") && files.includes("dashboards/routes.tsx"), "files were read");
  const long: string[] = [];
  for (const file of files) {
    const lines = (await Deno.readTextFile(`${REPO_ROOT}/${file}`)).split("\n").length - 1;
    if (lines > MAX_SOURCE_LINES && !(file in DATA_TABLES)) long.push(`${file} (${lines})`);
  }
  deepStrictEqual(long, [], "split these by concern");
  for (const table of Object.keys(DATA_TABLES)) ok(files.includes(table), `${table} exists`);
});

Deno.test("context headers come from the contract: the app and the client name none by hand", async () => {
  const { CONTEXT_HEADER_NAMES } = await import("../../src/api/header_names.ts");
  ok(Object.values(CONTEXT_HEADER_NAMES).includes("x-policy-source"), "the names were read");
  for (const file of ["src/http/app.ts", "cli/policy/api_call.ts", "cli/policy/api_client.ts"]) {
    const code = (await Deno.readTextFile(`${REPO_ROOT}/${file}`))
      .split("\n").filter((line) => !/^\s*(\*|\/\/)/.test(line)).join("\n");
    deepStrictEqual(code.match(/["'`]x-policy-[a-z-]*["'`]/gi) ?? [], [], file);
  }
});
