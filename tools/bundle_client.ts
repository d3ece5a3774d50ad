/**
 * `deno task bundle`: builds the client `policy` as JavaScript in
 * `dist/policy/` (entry `policy.js`), run with `deno run -A --no-config`.
 * `deno task install` installs it as the `policy` command, and the hooks
 * `policy init` writes call it back.
 *
 * Why: the client starts on every commit and on every shell command an agent
 * issues. Run from the sources, the 50-package pre-commit check loads about 30
 * TypeScript modules through the project's configuration; Deno pays for every
 * file and for the configuration. The bundle's entry is one file that needs no
 * configuration, import map or `node_modules` at run time
 * (docs/performance.md, "Pre-commit, the bundled client").
 *
 * How (`deno bundle`, which is esbuild), from two rewritten copies of the
 * sources in a scratch directory under `dist/`:
 * - **The entry** `policy.js`: one file without code splitting, holding
 *   `cli/policy.ts` and the modules in {@link HOT_MODULES} (what `check`,
 *   `hook` and `precommit` load on their common path; their
 *   `lazyImport<typeof import("X")>(…)` calls become static imports). Every
 *   other lazy import becomes an import of that module's file in `lib/`, by a
 *   computed URL that esbuild leaves alone and Deno reads only when it runs.
 * - **The rest** `lib/`: every other lazily imported module (and the npm
 *   packages imported lazily) as an entry of a code-split build, named by its
 *   path (`lib/cli/policy/program.js`). Inside it, lazy imports become
 *   `import("X")` so that esbuild splits them off too.
 * - `build_info.ts` says `BUNDLED = true` in both.
 *
 * The two builds share no module instances, so the client's error classes
 * answer `instanceof` by a registered symbol rather than by prototype
 * (`cli/policy/exit_codes.ts`); values cross between them only as plain data,
 * errors and the API client object.
 *
 * Two rewrites of esbuild's output keep the start-up cheap; the build fails
 * if the first finds nothing to rewrite (a changed esbuild output must not
 * pass silently):
 * - a chunk's dynamic import `import("./x-HASH.js")` gets a computed
 *   specifier (`new URL(…, import.meta.url).href`): Deno would otherwise read
 *   every chunk the program might load before it starts;
 * - the `require` shim of the CommonJS packages is created on first use
 *   (`process.getBuiltinModule`) instead of importing `node:module` up front,
 *   which would load Deno's Node compatibility layer for every command.
 *
 * **The eager copy** `eager/` holds the same files, and the git shim `policy
 * init` installs runs it with V8's eager compilation
 * (`--v8-flags=--no-lazy`). Deno caches a module's compiled code when it
 * loads it, before it runs: a function V8 compiles lazily, on its first call,
 * is compiled again in every process. Compiled eagerly, every function of the
 * check comes from the cache: about 2 ms, a seventh of an empty Deno start,
 * on a commit adding 50 dependencies. It is the shim's alone because eager
 * compilation costs more where a command loads large libraries (`--help`,
 * `audit`) or Deno's lazily loaded process API (`policy precommit` running
 * git itself), and in its own copy because the code cache is kept per file
 * and per V8 flags: the two modes on one file would evict each other's.
 *
 * Usage: `deno run -A tools/bundle_client.ts [--out-dir DIR]` (default `dist/policy`)
 *
 * @module
 */
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { BUNDLE_ENTRY_NAME, EAGER_DIR } from "../cli/policy/build_info.ts";

/** The repository root (this file lives in `tools/`). */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Default output directory, relative to the repository. */
export const DEFAULT_OUT_DIR = join("dist", "policy");

/** The entry point of the client, relative to the repository. */
export const CLIENT_ENTRY = "cli/policy.ts";

/** The file name of the bundle's entry in the output directory. */
export const BUNDLE_ENTRY = BUNDLE_ENTRY_NAME;

/**
 * Lazily imported modules that the bundle loads with its entry: what the fast
 * path (`cli/policy/fast_path.ts`) needs to check a package, decide a hook
 * payload and check a commit of plain requirements. Everything else is loaded
 * from `lib/` on demand: the commander program, zod, the full requirement
 * parser, the shell reader, the offline registry, and the generated answer
 * validators (200 KB with their runtime, loaded while the server answers:
 * in the entry they cost every start about 1 ms).
 */
export const HOT_MODULES: readonly string[] = [
  "cli/policy/commands/check.ts",
  "cli/policy/commands/hook.ts",
  "cli/policy/commands/precommit.ts",
  "cli/policy/api_client.ts",
  "cli/policy/hooks/precommit_quick.ts",
];

/** The source trees the client is built from. */
const SOURCE_DIRS = ["cli", "src"];

/** The lazily loaded part's directory inside the output. */
export const LIB_DIR = "lib";

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
function lazyTargets(files: Map<string, string>): Set<string> {
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
function npmShimOf(target: string): string {
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

/** The client's sources (path → text), without tests and fixtures. */
function readSources(root: string, rel: string, into = new Map<string, string>()) {
  for (const entry of Deno.readDirSync(join(root, rel))) {
    const path = posix.join(rel, entry.name);
    if (entry.isDirectory) {
      if (entry.name !== "fixtures") readSources(root, path, into);
    } else if (entry.isFile && /\.(ts|tsx|js|json)$/.test(entry.name)) {
      if (!/_test\.tsx?$|_testing\.ts$/.test(entry.name)) {
        into.set(path, Deno.readTextFileSync(join(root, path)));
      }
    }
  }
  return into;
}

/** Writes `sources` under `dir`, each TypeScript file rewritten by `plan`, BUNDLED set. */
function writeSources(dir: string, sources: Map<string, string>, plan: LazyImportPlan): void {
  const flag = "cli/policy/build_info.ts";
  for (const [path, text] of sources) {
    let next = /\.tsx?$/.test(path) ? rewriteLazyImports(text, path, plan) : text;
    if (path === flag) {
      next = next.replace("BUNDLED: boolean = false", "BUNDLED: boolean = true");
      if (!next.includes("BUNDLED: boolean = true")) {
        throw new BundleError(`${path}: no BUNDLED flag to set`);
      }
    }
    Deno.mkdirSync(join(dir, dirname(path)), { recursive: true });
    Deno.writeTextFileSync(join(dir, path), next);
  }
}

/** Runs `deno bundle` with the project's configuration; a failure is a BundleError. */
async function denoBundle(root: string, outDir: string, entries: string[], split: boolean) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--config",
      join(root, "deno.json"),
      "--platform",
      "deno",
      "--format",
      "esm",
      ...(split
        ? ["--code-splitting", "--outdir", outDir]
        : ["--output", join(outDir, BUNDLE_ENTRY)]),
      ...entries,
    ],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!output.success) {
    const reason = new TextDecoder().decode(output.stderr).trim().split("\n").slice(0, 3);
    throw new BundleError(`deno bundle failed: ${reason.join(" ")}`);
  }
}

/** Every `.js` file under `dir` (path relative to it, with `/` → text). */
function readOutput(dir: string, rel = "", into = new Map<string, string>()) {
  for (const entry of Deno.readDirSync(join(dir, rel))) {
    const path = posix.join(rel, entry.name);
    if (entry.isDirectory) readOutput(dir, path, into);
    else if (entry.name.endsWith(".js")) into.set(path, Deno.readTextFileSync(join(dir, path)));
  }
  return into;
}

/** Options of {@link bundleClient}. */
export interface BundleOptions {
  /** Where the bundle goes (replaced); default `dist/policy` in the repository. */
  outDir?: string;
  /** The repository to build from; default this one. */
  root?: string;
}

/**
 * Builds the bundled client into `outDir` and returns the path of its entry.
 * The scratch copies live under `dist/` in the repository, so Deno resolves
 * their npm packages through the project's own configuration and lock file.
 */
export async function bundleClient(options: BundleOptions = {}): Promise<string> {
  const root = options.root ?? ROOT;
  const outDir = options.outDir ?? join(root, DEFAULT_OUT_DIR);
  const sources = new Map<string, string>();
  for (const dir of SOURCE_DIRS) readSources(root, dir, sources);
  const hot = new Set(HOT_MODULES);
  for (const module of hot) {
    if (!sources.has(module)) throw new BundleError(`hot module ${module} is not in the sources`);
  }
  const cold = [...lazyTargets(sources)].filter((target) => !hot.has(target));
  Deno.mkdirSync(join(root, "dist"), { recursive: true });
  const scratch = Deno.makeTempDirSync({ dir: join(root, "dist"), prefix: ".bundle-src-" });
  Deno.mkdirSync(dirname(outDir), { recursive: true });
  // Beside the output, so that it can be renamed into place; its own name, for concurrent builds.
  const staging = Deno.makeTempDirSync({ dir: dirname(outDir), prefix: ".staging-" });
  try {
    // The rest: each cold target an entry, named by its path; npm packages through a module
    // re-exporting their names (also for lazy imports inside lib/).
    const libSrc = join(scratch, "lib");
    writeSources(libSrc, sources, (target, specifier, path) => {
      if (sources.has(target)) return `import(${JSON.stringify(specifier)})`;
      const shim = posix.relative(posix.dirname(path), npmShimOf(target));
      return `import(${JSON.stringify(shim.startsWith(".") ? shim : `./${shim}`)})`;
    });
    const libEntries: string[] = [];
    for (const target of cold) {
      if (sources.has(target)) {
        libEntries.push(join(libSrc, target));
        continue;
      }
      const shim = join(libSrc, npmShimOf(target));
      Deno.writeTextFileSync(shim, npmReExport(target, await import(target)));
      libEntries.push(shim);
    }
    const libOut = join(staging, LIB_DIR);
    await denoBundle(root, libOut, libEntries, true);
    const lib = readOutput(libOut);
    for (const target of cold) {
      if (!lib.has(libEntryOf(target))) {
        throw new BundleError(`deno bundle did not write ${LIB_DIR}/${libEntryOf(target)}`);
      }
    }
    // Self-contained JavaScript (the generated validators) goes out as written: esbuild drops the
    // parentheses that have V8 compile their functions at load (while the server answers).
    for (const target of cold) {
      const text = sources.get(target);
      if (target.endsWith(".js") && text !== undefined && isSelfContained(text)) {
        lib.set(libEntryOf(target), text);
      }
    }
    const libRewrites = rewriteOutput(lib);
    if (libRewrites.imports === 0) {
      throw new BundleError("found no dynamic import of a chunk to rewrite in lib/");
    }
    // The entry: hot modules inside, cold ones from lib/ by computed URL.
    const hotSrc = join(scratch, "entry");
    writeSources(
      hotSrc,
      sources,
      (target) =>
        hot.has(target)
          ? "static"
          : `import(new URL(${
            JSON.stringify(`./${LIB_DIR}/${libEntryOf(target)}`)
          }, import.meta.url).href)`,
    );
    await denoBundle(root, staging, [join(hotSrc, CLIENT_ENTRY)], false);
    const entry = readOutput(staging, "", new Map()).get(BUNDLE_ENTRY);
    if (entry === undefined) throw new BundleError(`deno bundle wrote no ${BUNDLE_ENTRY}`);
    const entryFiles = new Map([[BUNDLE_ENTRY, entry]]);
    rewriteOutput(entryFiles);
    for (const [path, text] of [...lib].map(([p, t]) => [join(LIB_DIR, p), t] as const)) {
      Deno.writeTextFileSync(join(staging, path), text);
    }
    Deno.writeTextFileSync(join(staging, BUNDLE_ENTRY), entryFiles.get(BUNDLE_ENTRY)!);
    // The eager copy: the same files under their own names (Deno's code cache is per file).
    const eager = join(staging, EAGER_DIR);
    Deno.mkdirSync(eager);
    Deno.writeTextFileSync(join(eager, BUNDLE_ENTRY), entryFiles.get(BUNDLE_ENTRY)!);
    for (const [path, text] of lib) {
      Deno.mkdirSync(dirname(join(eager, LIB_DIR, path)), { recursive: true });
      Deno.writeTextFileSync(join(eager, LIB_DIR, path), text);
    }
    removeIfPresent(outDir);
    Deno.renameSync(staging, outDir);
    return join(outDir, BUNDLE_ENTRY);
  } finally {
    removeIfPresent(scratch);
    removeIfPresent(staging);
  }
}

function removeIfPresent(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { "out-dir": { type: "string" } },
    strict: true,
  });
  try {
    const entry = await bundleClient({ outDir: values["out-dir"] });
    console.error(`bundle: wrote ${relative(Deno.cwd(), entry) || entry}`);
    return 0;
  } catch (error) {
    console.error(`bundle: ${(error as Error).message}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
