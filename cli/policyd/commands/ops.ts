/**
 * Registers the operations subcommands — `init`, `check-config`, `selftest`,
 * `admin keys …` — on the `policyd` program (a {@link CommandRegistrar}).
 *
 * @module
 */
import { type Command, InvalidArgumentError } from "commander";
import type { CommandIO } from "../io.ts";
import { adminKeys } from "./admin.ts";
import { checkConfig } from "./check_config.ts";
import { init } from "./init.ts";
import { DEFAULT_SELFTEST_URL, selftest } from "./selftest.ts";

function timeoutOption(value: string): number {
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1 || ms > 600_000) {
    throw new InvalidArgumentError("expected milliseconds from 1 to 600000");
  }
  return ms;
}

/** Adds the operations subcommands to `program`. */
export function registerOpsCommands(
  program: Command,
  io: CommandIO,
  done: (code: number) => void,
): void {
  program
    .command("init")
    .description(
      "write a container stack (Dockerfile, compose.yaml, .env.example, example registry) into --target",
    )
    .option("--target <dir>", "directory to write the stack into", ".")
    .option(
      "--force",
      "rewrite the stack files of an initialised directory (an existing registry is kept)",
      false,
    )
    .option(
      "--postgres",
      "write the multi-instance stack: two policyd replicas behind Caddy, PostgreSQL and Redis",
      false,
    )
    .action(async (opts: { target: string; force: boolean; postgres: boolean }) =>
      done(await init(opts, io))
    );

  program
    .command("check-config")
    .description("pre-flight checks of the settings in the environment; exit 1 if any fails")
    .option("--json", "print the rows as JSON", false)
    .option(
      "--env-file <file>",
      "read variables from a dotenv file over the environment (quickstart writes .policyd/quickstart.env)",
    )
    .action(async (opts: { json: boolean; envFile?: string }) => done(await checkConfig(opts, io)));

  program
    .command("selftest")
    .description("probe a running server's /api/v1/health; exit 0 alive, 1 not")
    .option("--url <url>", "base URL of the server", DEFAULT_SELFTEST_URL)
    .option("--timeout <ms>", "time-out of the probe in milliseconds", timeoutOption, 5000)
    .action(async (opts: { url: string; timeout: number }) =>
      done(await selftest({ url: opts.url, timeoutMs: opts.timeout }, io))
    );

  const keys = program
    .command("admin")
    .description("organisation-mode administration (placeholders)")
    .command("keys")
    .description("API keys (placeholders: print what they will do and exit 2)");
  keys
    .command("create")
    .argument("<name>", "name of the key")
    .description("create an API key")
    .action((name: string) => done(adminKeys("create", name, io)));
  keys.command("list").description("list API keys").action(() =>
    done(adminKeys("list", undefined, io))
  );
  keys
    .command("revoke")
    .argument("<id>", "id of the key")
    .description("revoke an API key")
    .action((id: string) => done(adminKeys("revoke", id, io)));
}
