/**
 * The workflows runner and exporter: `run`, `check` and `export`. Run it as a
 * program (`deno run -A jsr:@policyd/workflows/runner run -- -A`, or the path of
 * this file) or call `runWorkflowTests()` / `main()` from your own script.
 *
 * @example
 * ```ts ignore
 * import { runWorkflowTests } from "@policyd/workflows/runner";
 * const code = await runWorkflowTests({
 *   denoArgs: ["-A"], out: "workflows.md", json: "workflows.json", title: "API Workflows",
 *   merge: "auto", check: false, cwd: Deno.cwd(), log: console.error,
 * });
 * ```
 *
 * @module
 */
import { main } from "./src/cli.ts";

export { type CliIo, main, USAGE } from "./src/cli.ts";
export { type RunOptions, runWorkflowTests } from "./src/runner.ts";
export {
  conventionsSchema,
  loadConventions,
  renderConventions,
  renderSettings,
} from "./src/conventions.ts";

/**
 * Runs the command line on this process (`Deno.args`, the working directory,
 * the environment, stderr) and exits with its code.
 *
 * @example
 * ```ts ignore
 * import { runAsProgram } from "@policyd/workflows/runner";
 * if (import.meta.main) await runAsProgram();
 * ```
 */
export async function runAsProgram(): Promise<never> {
  const code = await main(Deno.args, {
    cwd: Deno.cwd(),
    env: (name) => Deno.env.get(name),
    log: (line) => console.error(line),
  });
  Deno.exit(code);
}

if (import.meta.main) await runAsProgram();
