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
 * esbuild's output is then fixed in two places (`bundle_rewrite.ts`).
 *
 * **The eager copy** `eager/` holds the same files; the git shim runs it with
 * V8's eager compilation (`--v8-flags=--no-lazy`). Deno caches a module's
 * compiled code when it loads it, so a function compiled on its first call is
 * compiled again in every process; compiled eagerly, the whole check comes
 * from the cache (about 2 ms). Only the shim: eager compilation costs more
 * where a command loads large libraries or runs git itself. A copy: the code
 * cache is kept per file and per V8 flags (docs/decisions.md, "The installed
 * client is a bundle").
 *
 * Usage: `deno run -A tools/bundle_client.ts [--out-dir DIR]` (default `dist/policy`)
 *
 * @module
 */
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { BUNDLE_ENTRY_NAME, EAGER_DIR } from "../cli/policy/build_info.ts";
import {
  BundleError,
  isSelfContained,
  lazyTargets,
  libEntryOf,
  npmReExport,
  npmShimOf,
  rewriteOutput,
} from "./bundle_rewrite.ts";
import {
  denoBundle,
  headOf,
  readOutput,
  readSources,
  removeIfPresent,
  writeSources,
} from "./bundle_io.ts";

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
    const commit = await headOf(root);
    writeSources(libSrc, sources, (target, specifier, path) => {
      if (sources.has(target)) return `import(${JSON.stringify(specifier)})`;
      const shim = posix.relative(posix.dirname(path), npmShimOf(target));
      return `import(${JSON.stringify(shim.startsWith(".") ? shim : `./${shim}`)})`;
    }, commit);
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
    await denoBundle(root, libEntries, { dir: libOut });
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
      commit,
    );
    await denoBundle(root, [join(hotSrc, CLIENT_ENTRY)], { file: join(staging, BUNDLE_ENTRY) });
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
    // A temporary directory is private (0700); the bundle is read like any installed program.
    if (Deno.build.os !== "windows") Deno.chmodSync(staging, 0o755);
    removeIfPresent(outDir);
    Deno.renameSync(staging, outDir);
    return join(outDir, BUNDLE_ENTRY);
  } finally {
    removeIfPresent(scratch);
    removeIfPresent(staging);
  }
}

async function main(args: string[]): Promise<number> {
  try {
    const { values } = parseArgs({
      args,
      options: { "out-dir": { type: "string" } },
      strict: true,
    });
    const entry = await bundleClient({ outDir: values["out-dir"] });
    console.error(`bundle: wrote ${relative(Deno.cwd(), entry) || entry}`);
    return 0;
  } catch (error) {
    console.error(`bundle: ${(error as Error).message}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
