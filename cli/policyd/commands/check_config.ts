/**
 * `policyd check-config [--json] [--env-file FILE]`: runs the pre-flight
 * checks of `config_checks.ts` on the environment (with the variables of
 * `FILE` over it, e.g. the `quickstart.env` quickstart writes) and renders
 * one row each. Exit 1 when any row fails; warnings do not fail the run.
 *
 * @module
 */
import { parseEnv } from "node:util";
import type { Environment } from "../../../src/settings.ts";
import { CommandError, type CommandIO } from "../io.ts";
import { type CheckRow, runChecks } from "./config_checks.ts";

/** Options of `check-config`. */
export interface CheckConfigOptions {
  json: boolean;
  /** A dotenv file whose variables override the environment's. */
  envFile?: string;
}

/** The environment with the variables of `path` (dotenv syntax) over it. */
export async function withEnvFile(env: Environment, path: string): Promise<Environment> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new CommandError(`cannot read --env-file ${path}: ${(error as Error).message}`);
  }
  return { ...env, ...parseEnv(text) };
}

/** Renders rows as an aligned text table with hints under failing or warning rows. */
export function renderRows(rows: CheckRow[]): string {
  const width = Math.max(...rows.map((r) => r.check.length));
  const lines: string[] = [];
  for (const r of rows) {
    lines.push(`${r.status.toUpperCase().padEnd(4)}  ${r.check.padEnd(width)}  ${r.detail}`);
    if (r.hint && r.status !== "ok") lines.push(`${" ".repeat(width + 6)}hint: ${r.hint}`);
  }
  const count = (s: string) => rows.filter((r) => r.status === s).length;
  lines.push("", `${count("ok")} ok, ${count("warn")} warnings, ${count("fail")} failures`);
  return lines.join("\n") + "\n";
}

/** Runs `check-config`. */
export async function checkConfig(options: CheckConfigOptions, io: CommandIO): Promise<number> {
  const env = options.envFile ? await withEnvFile(io.env, options.envFile) : io.env;
  const rows = await runChecks(env);
  const ok = rows.every((r) => r.status !== "fail");
  io.stdout(options.json ? JSON.stringify({ ok, rows }, null, 2) + "\n" : renderRows(rows));
  return ok ? 0 : 1;
}
