/**
 * What the runner needs to know about the `deno test` arguments it forwards:
 * whether the run is narrowed, and which permission flags it may add.
 *
 * @module
 */

// `deno test` options that take their value as the next argument.
const VALUE_FLAGS = new Set([
  "--filter",
  "--reporter",
  "--junit-path",
  "--retry",
  "--repeats",
  "--shard",
  "--related",
  "--ext",
  "--import-map",
  "-c",
  "--config",
  "--cert",
  "--min-dep-age",
  "--inspect-publish-uid",
  "--location",
  "--seed",
  "--preload",
  "--require",
  "--conditions",
  "--node-modules-linker",
  "--coverage-threshold",
]);

// Options that make a run cover only part of the suite.
const NARROWING_FLAGS = [
  "--filter",
  "--shard",
  "--changed",
  "--related",
  "--ignore",
  "--fail-fast",
];

/** The analysed `deno test` arguments. */
export interface DenoTestArgs {
  /** File or directory arguments (before any `--`). */
  paths: string[];
  /** Why the run covers only part of the suite, or `undefined` for a full run. */
  narrowedBy?: string;
}

/**
 * Splits the forwarded arguments into paths and options, and says whether the
 * run is narrowed: any path argument, or `--filter`, `--shard`, `--changed`,
 * `--related`, `--ignore` or `--fail-fast`.
 *
 * @example
 * ```ts
 * import { analyseDenoTestArgs } from "./deno_args.ts";
 * analyseDenoTestArgs(["-A", "--filter", "login", "tests/"]);
 * // { paths: ["tests/"], narrowedBy: "tests/" }
 * ```
 */
export function analyseDenoTestArgs(args: readonly string[]): DenoTestArgs {
  const paths: string[] = [];
  let flag: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    if (arg.startsWith("-")) {
      const name = arg.split("=")[0];
      flag ??= NARROWING_FLAGS.find((f) => f === name);
      const takesNext = !arg.includes("=") &&
        (VALUE_FLAGS.has(arg) || (arg === "--lock" && !(args[i + 1] ?? "-").startsWith("-")));
      if (takesNext) i++;
      continue;
    }
    paths.push(arg);
  }
  return { paths, narrowedBy: paths[0] ?? flag };
}

/**
 * The permission flags the runner adds so the workflow wrapper can read
 * `WORKFLOWS_RUN_DIR` and write into the run directory. Nothing is added when
 * the user grants everything (`-A`, a permission set) or the whole permission
 * already, because Deno rejects `-A` with `--allow-write=…` and a scoped flag
 * would narrow a bare `--allow-write`.
 *
 * @example
 * ```ts
 * import { permissionArgs } from "./deno_args.ts";
 * permissionArgs(["--allow-read"], "/tmp/run", "WORKFLOWS_RUN_DIR");
 * // ["--allow-write=/tmp/run", "--allow-env=WORKFLOWS_RUN_DIR"]
 * permissionArgs(["-A"], "/tmp/run", "WORKFLOWS_RUN_DIR"); // []
 * ```
 */
export function permissionArgs(args: readonly string[], runDir: string, envName: string): string[] {
  const options = args.slice(0, endOfOptions(args));
  const short = (letter: string) =>
    options.some((a) => /^-[A-Za-z]+$/.test(a) && a.includes(letter));
  const has = (...names: string[]) => options.some((a) => names.includes(a.split("=")[0]));
  if (short("A") || has("--allow-all", "--permission-set") || short("P")) return [];
  const out: string[] = [];
  if (!(short("W") || options.includes("--allow-write"))) out.push(`--allow-write=${runDir}`);
  if (!(short("E") || options.includes("--allow-env"))) out.push(`--allow-env=${envName}`);
  return out;
}

function endOfOptions(args: readonly string[]): number {
  const index = args.indexOf("--");
  return index === -1 ? args.length : index;
}

/**
 * Options the runner manages itself and refuses to forward.
 *
 * @example
 * ```ts
 * import { forbiddenDenoTestArg } from "./deno_args.ts";
 * forbiddenDenoTestArg(["--junit-path=x.xml"]); // "--junit-path"
 * ```
 */
export function forbiddenDenoTestArg(args: readonly string[]): string | undefined {
  const options = args.slice(0, endOfOptions(args)).map((a) => a.split("=")[0]);
  return ["--junit-path", "--watch"].find((f) => options.includes(f));
}
