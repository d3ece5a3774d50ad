/**
 * The source and output rewrites of the client bundle (`bundle_client.ts`):
 * lazy imports made visible to esbuild, the `lib/` names of lazily imported
 * modules and npm packages, and the two fixes to esbuild's output. Pure
 * functions over text.
 *
 * The fixes to esbuild's output keep the start-up cheap; the build fails if
 * the first finds nothing to rewrite (a changed esbuild output must not pass
 * silently):
 * - a chunk's dynamic import `import("./x-HASH.js")` gets a computed
 *   specifier (`new URL(…, import.meta.url).href`): Deno would otherwise read
 *   every chunk the program might load before it starts;
 * - the `require` shim of the CommonJS packages is created on first use
 *   (`process.getBuiltinModule`) instead of importing `node:module` up front,
 *   which would load Deno's Node compatibility layer for every command.
 *
 * @module
 */
import { posix } from "node:path";

/** `lazyImport<typeof import("X")>(new URL("X", import.meta.url))` or `…>("X")`. */
const LAZY_IMPORT =
  /lazyImport<\s*typeof import\("([^"]+)"\)\s*>\(\s*(?:new URL\("\1",\s*import\.meta\.url\)|"\1"),?\s*\)/g;

/** A build step that found what it must rewrite missing or changed. */
export class BundleError extends Error {}

/**
 * What a lazy import of `target` (a repository path such as
 * `cli/policy/program.ts`, or an npm package name) written as `specifier` in
 * the file at `path` becomes: `"static"` for a static namespace import, else
 * the expression that replaces the call.
 */
export type LazyImportPlan = (
  target: string,
  specifier: string,
  path: string,
) => "static" | string;

/**
 * Rewrites the lazy imports of one source file (at `path`, relative to the
 * repository) as `plan` says; static ones are hoisted as namespace imports.
 * Doc-comment lines are left alone. Throws when a call of `lazyImport` does
 * not have the one recognised form.
 *
 * @example
 * ```ts
 * rewriteLazyImports(
 *   'const m = await lazyImport<typeof import("./b.ts")>(new URL("./b.ts", import.meta.url));\n',
 *   "cli/a.ts",
 *   (_target, specifier) => `import(${JSON.stringify(specifier)})`,
 * ); // 'const m = await import("./b.ts");\n'
 * ```
 */
export function rewriteLazyImports(text: string, path: string, plan: LazyImportPlan): string {
  const statics: string[] = [];
  const rewritten = text.replace(LAZY_IMPORT, (call, specifier: string, offset: number) => {
    if (inComment(text, offset)) return call;
    const target = lazyTarget(path, specifier);
    const expression = plan(target, specifier, path);
    if (expression !== "static") return expression;
    const name = `__hot${statics.length}`;
    statics.push(`import * as ${name} from ${JSON.stringify(specifier)};\n`);
    return `Promise.resolve(${name})`;
  });
  const left = rewritten.split("\n").filter((line) =>
    /(?<!function )\blazyImport</.test(line) && !/^\s*(\*|\/\/)/.test(line)
  );
  if (left.length) {
    throw new BundleError(`${path}: a lazyImport call of an unknown form: ${left[0].trim()}`);
  }
  return statics.join("") + rewritten;
}

/** Whether the line holding `offset` is a comment line (`*` of a doc comment, or `//`). */
function inComment(text: string, offset: number): boolean {
  const line = text.slice(text.lastIndexOf("\n", offset) + 1, offset);
  return /^\s*(\*|\/\/)/.test(line);
}

/** The repository path a relative specifier in `path` names; an npm package name as it is. */
function lazyTarget(path: string, specifier: string): string {
  return specifier.startsWith(".") ? posix.join(posix.dirname(path), specifier) : specifier;
}

/** Every lazy import target of the sources (repository paths and npm package names). */
export function lazyTargets(files: Map<string, string>): Set<string> {
  const targets = new Set<string>();
  for (const [path, text] of files) {
    for (const m of text.matchAll(LAZY_IMPORT)) {
      if (!inComment(text, m.index)) targets.add(lazyTarget(path, m[1]));
    }
  }
  return targets;
}

/** The `lib/` entry a lazy import target is built into, relative to `lib/`. */
export function libEntryOf(target: string): string {
  return target.startsWith("cli/") || target.startsWith("src/")
    ? target.replace(/\.tsx?$/, ".js")
    : `npm-${target.replace(/[^A-Za-z0-9]+/g, "-")}.js`;
}

/** Whether JavaScript source imports nothing (no `import`, `import()` or `require`). */
export function isSelfContained(text: string): boolean {
  return !/^\s*(import|export\s+(\*|\{[^}]*\})\s+from)\b|\bimport\s*\(|\brequire\s*\(/m.test(text);
}

/** The source of the `lib/` module standing for the npm package `target`. */
export function npmShimOf(target: string): string {
  return libEntryOf(target).replace(/\.js$/, ".ts");
}

/**
 * The module standing for the npm package `name` in `lib/`: its named exports
 * spelled out, as Deno's import of the package (`namespace`) shows them.
 * esbuild cannot list what a CommonJS package exports, and its `import()` of
 * one yields only `default`: `yaml` then has no `LineCounter`.
 */
export function npmReExport(name: string, namespace: Record<string, unknown>): string {
  const names = Object.keys(namespace).filter((key) =>
    key !== "default" && /^[A-Za-z_$][\w$]*$/.test(key)
  ).sort();
  const lines = [`import * as ns from ${JSON.stringify(name)};`];
  if (names.length) lines.push(`export const { ${names.join(", ")} } = ns;`);
  if ("default" in namespace) lines.push("export default (ns as { default?: unknown }).default;");
  return lines.join("\n") + "\n";
}

/** `import { createRequire … } from "node:module"; var __require = …(import.meta.url);` */
const REQUIRE_SHIM =
  /import \{ createRequire as (\w+) \} from "node:module";\s*var __require = \1\(import\.meta\.url\);/;

/** Dynamic import of a sibling chunk, as esbuild writes it. */
const CHUNK_IMPORT = /\bimport\("(\.{1,2}\/[\w./-]+\.js)"\)/g;

/**
 * The two rewrites of esbuild's output described in the module doc, over the
 * output files of one build (path → text); returns how many of each it made.
 */
export function rewriteOutput(files: Map<string, string>): { imports: number; shims: number } {
  let shims = 0;
  let imports = 0;
  for (const [name, text] of files) {
    let next = text.replace(REQUIRE_SHIM, () => {
      shims++;
      return "var __require = (id) => globalThis.process.getBuiltinModule(id);";
    });
    next = next.replace(CHUNK_IMPORT, (_m, chunk: string) => {
      imports++;
      return `import(new URL(${JSON.stringify(chunk)}, import.meta.url).href)`;
    });
    files.set(name, next);
  }
  return { imports, shims };
}
