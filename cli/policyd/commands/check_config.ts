/**
 * `policyd check-config [--json]`: runs the pre-flight checks of
 * `config_checks.ts` on the environment and renders one row each. Exit 1 when
 * any row fails; warnings do not fail the run.
 *
 * @module
 */
import type { CommandIO } from "../io.ts";
import { type CheckRow, runChecks } from "./config_checks.ts";

/** Options of `check-config`. */
export interface CheckConfigOptions {
  json: boolean;
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
  const rows = await runChecks(io.env);
  const ok = rows.every((r) => r.status !== "fail");
  io.stdout(options.json ? JSON.stringify({ ok, rows }, null, 2) + "\n" : renderRows(rows));
  return ok ? 0 : 1;
}
