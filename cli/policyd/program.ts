/**
 * The `policyd` command line: one commander program, and `run(args, io)`
 * that turns typed failures into exit codes without touching the process.
 *
 * @module
 */
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { VERSION } from "../../src/version.ts";
import { CommandError, type CommandIO, EXIT_USAGE } from "./io.ts";
import { registerOpsCommands } from "./commands/ops.ts";
import { registerAlertsCommands } from "./commands/alerts.ts";
import { quickstart } from "./commands/quickstart.ts";
import { registryCompile } from "./commands/registry_compile.ts";
import { serve } from "./commands/serve.ts";

function portOption(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError("expected a port number from 0 to 65535");
  }
  return port;
}

/** A hook to add subcommands (operations commands register through it). */
export type CommandRegistrar = (
  program: Command,
  io: CommandIO,
  done: (code: number) => void,
) => void;

/** Registrars of further subcommands, in order. */
export const EXTRA_COMMANDS: CommandRegistrar[] = [registerOpsCommands, registerAlertsCommands];

/** Builds the program; `done` receives the exit code of the action that ran. */
export function buildProgram(io: CommandIO, done: (code: number) => void): Command {
  const program = new Command("policyd")
    .description("policyd: dependency policy service for Python packages")
    .version(VERSION, "-V, --version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showSuggestionAfterError(true);

  program
    .command("serve")
    .description("run the server (settings from the environment, see README)")
    .option("--host <host>", "bind address (default POLICY_HOST or 127.0.0.1)")
    .option("--port <port>", "port (default POLICY_PORT or 8765)", portOption)
    .action(async (opts: { host?: string; port?: number }) => done(await serve(opts, io)));

  program
    .command("quickstart")
    .description(
      "single-user bring-up: example registry + SQLite under --target, served on 127.0.0.1",
    )
    .option(
      "--target <dir>",
      "directory for registry.yaml, registry.json and policyd.db",
      "./.policyd",
    )
    .option("--force", "overwrite the registry and database with fresh ones", false)
    .option("--port <port>", "port", portOption, 8765)
    .option("--no-serve", "prepare the files and exit without serving")
    .action(async (opts: { target: string; force: boolean; port: number; serve: boolean }) =>
      done(await quickstart({ ...opts, prepareOnly: !opts.serve }, io))
    );

  const registry = program.command("registry").description("registry tools");
  registry
    .command("compile")
    .description("compile a registry YAML file to the JSON the server reads")
    .argument("<source>", "registry YAML")
    .argument("<destination>", "compiled JSON to write")
    .action(async (source: string, destination: string) =>
      done(await registryCompile(source, destination, io))
    );

  for (const register of EXTRA_COMMANDS) register(program, io, done);
  return program;
}

/**
 * Runs the command line and returns the exit code: 0 success, 1 failure,
 * 64 usage error. Never throws for expected failures.
 */
export async function run(args: string[], io: CommandIO): Promise<number> {
  let code = 0;
  const program = buildProgram(io, (c) => (code = c));
  try {
    await program.parseAsync(args, { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; everything else commander reports is a usage error.
      if (["commander.helpDisplayed", "commander.version", "commander.help"].includes(error.code)) {
        return 0;
      }
      if (error.code === "commander.executeSubCommandAsync") return 1;
      return EXIT_USAGE;
    }
    if (error instanceof CommandError) {
      io.stderr(`policyd: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`policyd: unexpected error: ${(error as Error)?.message ?? String(error)}\n`);
    return 1;
  }
}
