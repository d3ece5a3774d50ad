import assert from "node:assert/strict";
import { HOT_MODULES } from "./bundle_client.ts";
import {
  BundleError,
  isSelfContained,
  type LazyImportPlan,
  libEntryOf,
  rewriteLazyImports,
  rewriteOutput,
} from "./bundle_rewrite.ts";

/** The plan of the `lib/` build: every lazy import a literal `import()`. */
const literal: LazyImportPlan = (_target, specifier) => `import(${JSON.stringify(specifier)})`;

const SOURCE = `import { lazyImport } from "../lazy_import.ts";
/**
 * const m = await lazyImport<typeof import("./doc.ts")>(new URL("./doc.ts", import.meta.url));
 */
export async function go() {
  const { a } = await lazyImport<typeof import("../api_client.ts")>(
    new URL("../api_client.ts", import.meta.url),
  );
  const { b } = await lazyImport<
    typeof import("./other.ts")
  >(new URL("./other.ts", import.meta.url));
  const toml = await lazyImport<typeof import("smol-toml")>("smol-toml");
  return [a, b, toml];
}
`;

Deno.test("lazy imports become literal imports for the lib/ build, doc comments untouched", () => {
  const out = rewriteLazyImports(SOURCE, "cli/policy/commands/x.ts", literal);
  assert.match(out, /const \{ a \} = await import\("\.\.\/api_client\.ts"\);/);
  assert.match(out, /const \{ b \} = await import\("\.\/other\.ts"\);/);
  assert.match(out, /const toml = await import\("smol-toml"\);/);
  assert.match(out, /lazyImport<typeof import\("\.\/doc\.ts"\)>/, "the doc comment is left alone");
});

Deno.test("the plan sees repository paths; hot modules are hoisted as static imports", () => {
  const seen: string[] = [];
  const out = rewriteLazyImports(SOURCE, "cli/policy/commands/x.ts", (target) => {
    seen.push(target);
    return target === "cli/policy/api_client.ts" ? "static" : `load(${JSON.stringify(target)})`;
  });
  assert.deepEqual(seen, ["cli/policy/api_client.ts", "cli/policy/commands/other.ts", "smol-toml"]);
  assert.ok(out.startsWith('import * as __hot0 from "../api_client.ts";\n'), out.slice(0, 80));
  assert.match(out, /const \{ a \} = await Promise\.resolve\(__hot0\);/);
  assert.match(out, /await load\("cli\/policy\/commands\/other\.ts"\)/);
});

Deno.test("a lazyImport call of another form fails the build", () => {
  const odd = `const m = await lazyImport<typeof import("./a.ts")>(someUrl);\n`;
  assert.throws(() => rewriteLazyImports(odd, "cli/x.ts", literal), (error: unknown) => {
    assert.ok(error instanceof BundleError);
    assert.match(error.message, /^cli\/x\.ts: a lazyImport call of an unknown form: const m/);
    return true;
  });
  // The definition itself is not a call.
  const definition = "export function lazyImport<T>(url: URL | string): Promise<T> {\n";
  assert.equal(rewriteLazyImports(definition, "cli/policy/lazy_import.ts", literal), definition);
});

Deno.test("lib/ entries are named by repository path; npm packages by a safe name", () => {
  assert.equal(libEntryOf("cli/policy/program.ts"), "cli/policy/program.ts".replace(".ts", ".js"));
  assert.equal(libEntryOf("src/api/service.ts"), "src/api/service.js");
  assert.equal(libEntryOf("smol-toml"), "npm-smol-toml.js");
  assert.equal(libEntryOf("@scope/pkg"), "npm--scope-pkg.js");
});

Deno.test("esbuild's output: chunk imports get computed specifiers, the require shim is made lazy", () => {
  const files = new Map([
    [
      "chunk-AAA.js",
      'import { createRequire as __deno_internal_createRequire } from "node:module";\n' +
      "var __require = __deno_internal_createRequire(import.meta.url);\nexport { __require };\n",
    ],
    [
      "policy.js",
      'import { x } from "./chunk-AAA.js";\nconst p = () => import("./program-B2C3.js");\n' +
      'const n = () => import("node:crypto");\n',
    ],
  ]);
  assert.deepEqual(rewriteOutput(files), { imports: 1, shims: 1 });
  assert.equal(
    files.get("chunk-AAA.js"),
    "var __require = (id) => globalThis.process.getBuiltinModule(id);\nexport { __require };\n",
  );
  const entry = files.get("policy.js")!;
  assert.match(entry, /import \{ x \} from "\.\/chunk-AAA\.js";/, "static imports stay");
  assert.match(entry, /import\(new URL\("\.\/program-B2C3\.js", import\.meta\.url\)\.href\)/);
  assert.match(entry, /import\("node:crypto"\)/, "built-in modules stay");
});

Deno.test("every hot module is a lazy import target of the client", async () => {
  const root = new URL("../", import.meta.url);
  const sources = await Promise.all(
    ["cli/policy/fast_path.ts", "cli/policy/commands/precommit.ts"].map((p) =>
      Deno.readTextFile(new URL(p, root))
    ),
  );
  const targets = new Set<string>();
  for (
    const [i, path] of ["cli/policy/fast_path.ts", "cli/policy/commands/precommit.ts"].entries()
  ) {
    rewriteLazyImports(sources[i], path, (target) => (targets.add(target), "x"));
  }
  for (const module of HOT_MODULES) assert.ok(targets.has(module), `${module} is loaded lazily`);
});

Deno.test("self-contained JavaScript is told from modules that import", async () => {
  const validator = await Deno.readTextFile(
    new URL("../cli/policy/generated/batch.js", import.meta.url),
  );
  assert.ok(isSelfContained(validator), "the generated validator imports nothing");
  assert.ok(isSelfContained("const a = 1;\nexport const b = a;\n// import x from 'y'\n"));
  for (
    const text of [
      'import { x } from "./x.js";\n',
      'export * from "./x.js";\n',
      'export { a, b } from "./x.js";\n',
      'const m = await import("./x.js");\n',
      'const m = require("x");\n',
    ]
  ) assert.equal(isSelfContained(text), false, text);
});
