/**
 * `policyd quickstart`: single-user bring-up without containers. Creates
 * `<target>/registry.yaml` (the example) and `<target>/policyd.db` unless
 * present (`--force` overwrites), always recompiles `<target>/registry.json`,
 * writes `<target>/quickstart.env` (the settings it serves with, for
 * `policyd check-config --env-file`), and serves on 127.0.0.1 with the
 * embedded cache and the `local_file` proposer (SPEC §12, §15.25).
 *
 * @module
 */
import { join, resolve } from "node:path";
import { compileRegistry } from "../../../src/registry/compile.ts";
import { readExampleRegistry } from "../../../src/registry/example.ts";
import { writeFileAtomic } from "../../../src/registry/files.ts";
import { openSqliteStore } from "../../../src/store/sqlite.ts";
import { CommandError, type CommandIO } from "../io.ts";
import { serve } from "./serve.ts";

/** Options of `quickstart`. */
export interface QuickstartOptions {
  target: string;
  force: boolean;
  port: number;
  /** Prepare the files and return without serving (tests, `init`). */
  prepareOnly?: boolean;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Creates the quickstart files; returns their paths and what was created. */
export async function prepareQuickstart(target: string, force: boolean) {
  const dir = resolve(target);
  await Deno.mkdir(dir, { recursive: true });
  const registryYaml = join(dir, "registry.yaml");
  const registryJson = join(dir, "registry.json");
  const database = join(dir, "policyd.db");
  const created: string[] = [];
  if (force || !(await exists(registryYaml))) {
    await writeFileAtomic(registryYaml, await readExampleRegistry());
    created.push(registryYaml);
  }
  if (force) {
    for (const suffix of ["", "-wal", "-shm"]) await Deno.remove(database + suffix).catch(() => {});
  }
  if (!(await exists(database))) {
    await openSqliteStore(database).close();
    created.push(database);
  }
  const compiled = await compileRegistry(await Deno.readTextFile(registryYaml));
  if (!compiled.ok) {
    throw new CommandError(
      `${registryYaml} is invalid: ` + compiled.errors.map((e) =>
        `${e.path}: ${e.message}`
      ).join("; ") +
        " (fix it, or run quickstart --force to restore the example)",
    );
  }
  await writeFileAtomic(registryJson, JSON.stringify(compiled.registry, null, 2) + "\n");
  const envFile = join(dir, QUICKSTART_ENV_FILE);
  const settings = quickstartSettings(registryYaml, database);
  await writeFileAtomic(envFile, envFileText(settings));
  return {
    dir,
    registryYaml,
    registryJson,
    database,
    envFile,
    settings,
    created,
    registry: compiled.registry,
  };
}

/** Name of the file, under the target, that holds the settings quickstart serves with. */
export const QUICKSTART_ENV_FILE = "quickstart.env";

/** The settings quickstart serves with (besides an unset `REDIS_URL`). */
export function quickstartSettings(registryYaml: string, database: string) {
  return { REGISTRY_PATH: registryYaml, POLICY_DB_PATH: database, REGISTRY_PROPOSER: "local_file" };
}

function envFileText(settings: Record<string, string>): string {
  return [
    "# Written by `policyd quickstart` on every start: the settings it serves with",
    "# (REDIS_URL unset: the embedded cache). Check them with",
    "#   policyd check-config --env-file <this file>",
    ...Object.entries(settings).map(([name, value]) => `${name}=${JSON.stringify(value)}`),
    "",
  ].join("\n");
}

function banner(url: string, files: Awaited<ReturnType<typeof prepareQuickstart>>): string {
  return [
    `policyd quickstart is running at ${url}`,
    ``,
    `  registry   ${files.registryYaml} (${files.registry.packages.length} packages, version ${files.registry.version})`,
    `  database   ${files.database}`,
    `  settings   ${files.envFile}   (check: policyd check-config --env-file ${files.envFile})`,
    `  proposer   local_file (approved rules are written to the registry file and reloaded)`,
    ``,
    `  API        ${url}/api/v1/health`,
    `  evaluate   curl '${url}/api/v1/evaluate?package=pycrypto'`,
    `  dashboards ${url}/`,
    `  index      pip install --index-url ${url}/simple/ <package>   (the policy index, docs/index.md)`,
    `  API guide  ${url}/api/v1/workflows.md   (OpenAPI: ${url}/api/v1/openapi.json)`,
    ``,
    `Next steps:`,
    `  1. Edit ${files.registryYaml}; the server reloads it within seconds.`,
    `  2. Put the commands on your PATH: deno task install   (in the policyd checkout; installs policy and policyd)`,
    `  3. In a Python project: policy init --yes --server-url ${url}   (pre-commit hook + Claude Code hooks)`,
    `  4. policy check <package>   to ask before adding a dependency.`,
    `Stop with Ctrl-C.`,
    ``,
  ].join("\n");
}

/** Runs quickstart. */
export async function quickstart(options: QuickstartOptions, io: CommandIO): Promise<number> {
  const files = await prepareQuickstart(options.target, options.force);
  for (const path of files.created) io.stderr(`created ${path}\n`);
  if (options.prepareOnly) return 0;
  const env = { ...io.env, ...files.settings, REDIS_URL: undefined };
  return await serve(
    { host: "127.0.0.1", port: options.port, banner: (url) => banner(url, files) },
    { ...io, env },
  );
}
