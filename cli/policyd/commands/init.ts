/**
 * `policyd init [--target DIR] [--force] [--postgres]`: writes a container
 * stack into a directory — `Dockerfile`, `compose.yaml` (policyd + Redis; with
 * `--postgres` two policyd replicas behind Caddy, PostgreSQL and Redis, plus
 * the `Caddyfile`), `.env.example`, the example registry at
 * `registry/registry.yaml` — compiles
 * `registry/registry.json`, and records the run in `.policyd-init`. A second
 * run refuses unless `--force` (SPEC §12, §15.16).
 *
 * An existing `registry/registry.yaml` is kept even with `--force`: it holds
 * the operator's rules; the stack files around it are regenerated.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compileRegistry } from "../../../src/registry/compile.ts";
import { readExampleRegistry } from "../../../src/registry/example.ts";
import { writeFileAtomic } from "../../../src/registry/files.ts";
import { VERSION } from "../../../src/version.ts";
import { CommandError, type CommandIO } from "../io.ts";
import { composeYaml } from "../templates/compose.ts";
import { caddyfile, composePostgresYaml } from "../templates/compose_postgres.ts";
import { DOCKERFILE } from "../templates/dockerfile.ts";
import { envExample } from "../templates/env_example.ts";

/** Options of `init`. */
export interface InitOptions {
  target: string;
  force: boolean;
  /** Write the multi-instance stack (two replicas, proxy, PostgreSQL, Redis). */
  postgres?: boolean;
}

/** Name of the marker file that records a completed `init`. */
export const INIT_MARKER = ".policyd-init";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The default image build context: this checkout when running from source
 * (`deno run …`), otherwise a placeholder the operator sets through
 * `POLICYD_SOURCE` (a compiled binary has no source tree).
 */
export function defaultBuildContext(moduleUrl: string, execPath: string): string {
  const fromSource = moduleUrl.startsWith("file:") && /^deno(\.exe)?$/.test(basename(execPath));
  return fromSource ? resolve(dirname(fileURLToPath(moduleUrl)), "../../..") : "./policyd-src";
}

/** Writes the stack; returns the files written, in order. */
export async function writeStack(options: InitOptions, io: CommandIO): Promise<string[]> {
  const dir = resolve(options.target);
  const marker = join(dir, INIT_MARKER);
  if (!options.force && (await exists(marker))) {
    throw new CommandError(
      `${dir} was already initialised (${INIT_MARKER} exists); use --force to rewrite it`,
    );
  }
  const registryYaml = join(dir, "registry", "registry.yaml");
  const registryJson = join(dir, "registry", "registry.json");
  const dockerfile = join(dir, "Dockerfile");
  const written: string[] = [];
  const write = async (path: string, text: string) => {
    await writeFileAtomic(path, text);
    written.push(path);
  };
  try {
    await Deno.mkdir(join(dir, "registry"), { recursive: true });
    await write(dockerfile, DOCKERFILE);
    const compose = {
      dockerfile,
      source: defaultBuildContext(import.meta.url, Deno.execPath()),
      image: `policyd:${VERSION}`,
    };
    await write(
      join(dir, "compose.yaml"),
      options.postgres ? composePostgresYaml(compose) : composeYaml(compose),
    );
    if (options.postgres) await write(join(dir, "Caddyfile"), caddyfile());
    await write(join(dir, ".env.example"), envExample());
    if (await exists(registryYaml)) {
      io.stderr(`kept ${registryYaml} (existing rules are never overwritten)\n`);
    } else {
      await write(registryYaml, await readExampleRegistry());
    }
    const compiled = await compileRegistry(await Deno.readTextFile(registryYaml));
    if (!compiled.ok) {
      const first = compiled.errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`).join("; ");
      throw new CommandError(`${registryYaml} is invalid: ${first}`);
    }
    await write(registryJson, JSON.stringify(compiled.registry, null, 2) + "\n");
    const record = {
      version: VERSION,
      initialised_at: new Date().toISOString(),
      files: [...written],
    };
    await write(marker, JSON.stringify(record, null, 2) + "\n");
  } catch (error) {
    if (error instanceof CommandError) throw error;
    throw new CommandError(`cannot initialise ${dir}: ${(error as Error).message}`);
  }
  return written;
}

/** Runs `init`: writes the stack and prints the next steps. */
export async function init(options: InitOptions, io: CommandIO): Promise<number> {
  const written = await writeStack(options, io);
  for (const path of written) io.stderr(`wrote ${path}\n`);
  const dir = resolve(options.target);
  io.stdout(
    [
      `policyd container stack ready in ${dir}`,
      ``,
      `Next steps:`,
      `  1. cd ${dir} && cp .env.example .env   (set POLICYD_SOURCE to a policyd checkout if compose.yaml's default is wrong${
        options.postgres ? "; set POSTGRES_PASSWORD" : ""
      })`,
      `  2. edit registry/registry.yaml; policyd check-config validates settings and registry`,
      `  3. docker compose up -d --build`,
      `  4. policyd selftest --url http://127.0.0.1:8765`,
      ...(options.postgres
        ? [`  scaling, backups and upgrades of this stack: docs/deployment.md`]
        : []),
      ``,
    ].join("\n"),
  );
  return 0;
}
