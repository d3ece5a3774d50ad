/**
 * `policyd serve --port 0` as a child process for tests that need a real
 * process (signals, exit codes, resource limits): stdout and stderr piped,
 * the test's environment plus `env`, optionally under `ulimit -n`.
 *
 * @module
 */
import { join } from "node:path";
import { REPO_ROOT } from "./cli.ts";

/** Options of {@link spawnServe}. */
export interface ServeProcessOptions {
  /** Working directory (the test's temp directory). */
  cwd: string;
  /** Settings of the child, over the test's own environment. */
  env: Record<string, string>;
  /** Run under `ulimit -n N` (through bash). */
  openFiles?: number;
}

/** Spawns `policyd serve --port 0`; the caller reads the URL from stdout and stops it. */
export function spawnServe(options: ServeProcessOptions): Deno.ChildProcess {
  const serve = [
    "run",
    "-A",
    "--unstable-cron",
    "--config",
    join(REPO_ROOT, "deno.json"),
    join(REPO_ROOT, "cli/policyd.ts"),
    "serve",
    "--port",
    "0",
  ];
  const [command, args] = options.openFiles === undefined ? [Deno.execPath(), serve] : ["bash", [
    "-c",
    `ulimit -n ${options.openFiles} && exec "$@"`,
    "bash",
    Deno.execPath(),
    ...serve,
  ]];
  return new Deno.Command(command, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: false,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}
