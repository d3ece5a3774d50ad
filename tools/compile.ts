/**
 * `deno task compile`: builds the single executables `dist/policyd` (server)
 * and `dist/policy` (client) with `deno compile`. Files read at run time
 * (the example registry, dashboard assets, `workflows.md`) are passed with
 * `--include` so a binary needs no source tree (SPEC §1).
 *
 * `deno compile` downloads its runtime (denort) on first use; where that is
 * impossible, the script says so in one line and exits 1. `DENORT_BIN` points
 * Deno at a local runtime instead.
 *
 * Usage: `deno run -A tools/compile.ts [--out-dir DIR] [-- extra deno compile flags]`
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** One executable to build. */
export interface CompileTarget {
  name: string;
  entry: string;
  /** Paths (relative to the repository) read at run time; included when they exist. */
  assets: string[];
}

/** Permission and feature flags baked into both binaries. */
export const COMPILE_FLAGS = ["--allow-all", "--unstable-cron"];

/**
 * Assets `deno task test` generates (the workflow document): absent from a
 * fresh tree until the suite has run, and compiled in when present.
 */
export const GENERATED_ASSETS: readonly string[] = ["workflows.md"];

/** The executables of the project. */
export const TARGETS: CompileTarget[] = [
  {
    name: "policyd",
    entry: "cli/policyd.ts",
    assets: [
      "registry/registry.yaml",
      "dashboards/static",
      "workflows.md",
      "src/registry/parse_worker.ts",
      "docs",
      // The workflow library is a workspace member (deno.json "workspace"): its config resolves
      // its own imports, and Deno refuses a workspace whose member has no config file.
      "packages/workflows/deno.json",
    ],
  },
  // Modules the client loads with lazyImport() (cli/policy/lazy_import.ts), which
  // deno compile cannot see; cli/policy/lazy_import_test.ts keeps the list whole.
  {
    name: "policy",
    entry: "cli/policy.ts",
    assets: [
      "cli/policy/program.ts",
      "cli/policy/api_client.ts",
      "cli/policy/commands/check.ts",
      "cli/policy/commands/hook.ts",
      "cli/policy/commands/hook_decide.ts",
      "cli/policy/commands/precommit.ts",
      "cli/policy/config_schema.ts",
      "cli/policy/evaluation_schema.ts",
      "cli/policy/generated/batch.js",
      "cli/policy/generated/evaluation.js",
      "cli/policy/hooks/claude.ts",
      "cli/policy/hooks/gate_readers.ts",
      "cli/policy/hooks/precommit.ts",
      "cli/policy/hooks/precommit_quick.ts",
      "cli/policy/offline_registry.ts",
      "cli/policy/pyproject_toml.ts",
      "src/api/approvals.ts",
      "src/api/reports.ts",
      "src/api/service.ts",
    ],
  },
];

/** The repository root (this file lives in `tools/`). */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The `deno compile` arguments of a target; only existing assets are included. */
export function compileArgs(
  target: CompileTarget,
  outDir: string,
  root = ROOT,
  extra: string[] = [],
): string[] {
  const includes = target.assets.filter((asset) => exists(join(root, asset)));
  return [
    "compile",
    ...COMPILE_FLAGS,
    ...includes.flatMap((asset) => ["--include", asset]),
    ...extra,
    "--output",
    join(outDir, target.name),
    target.entry,
  ];
}

/** Whether `deno compile` failed because it could not download its runtime. */
export function isRuntimeDownloadFailure(stderr: string): boolean {
  return /denort/i.test(stderr) &&
    /(error sending request|dns error|failed to download|Setting up base binary|connect)/i.test(
      stderr,
    );
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { "out-dir": { type: "string", default: "dist" } },
    allowPositionals: true,
    strict: true,
  });
  const outDir = values["out-dir"]!;
  const targets = TARGETS.filter((t) => exists(join(ROOT, t.entry)));
  for (const target of targets) {
    const argv = compileArgs(target, outDir, ROOT, positionals);
    const output = await new Deno.Command(Deno.execPath(), {
      args: argv,
      cwd: ROOT,
      stdout: "inherit",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    if (!output.success) {
      if (isRuntimeDownloadFailure(stderr)) {
        console.error(
          `compile: deno compile could not download its runtime (denort ${Deno.version.deno}) — ` +
            `no internet access? Build where dl.deno.land is reachable, or set DENORT_BIN to a local denort binary.`,
        );
      } else {
        console.error(`compile: deno compile of ${target.entry} failed:\n${stderr.trim()}`);
      }
      return 1;
    }
    console.error(`compile: wrote ${join(outDir, target.name)}`);
  }
  return 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    console.error(`compile: ${(error as Error).message}`);
    Deno.exit(64);
  }
}
