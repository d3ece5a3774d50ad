/**
 * Runs the `policyd` command line in-process for integration tests and
 * captures its output and exit code.
 *
 * @module
 */
import { run } from "../../cli/policyd/program.ts";
import type { Environment } from "../../src/settings.ts";

/** Output of one run. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `policyd ARGS` with `env` as the whole environment. */
export async function runPolicyd(args: string[], env: Environment = {}): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await run(args, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env,
    stopSignal: new Promise<void>(() => {}),
  });
  return { code, stdout, stderr };
}

/** Asserts that `text` contains `part` (node:assert has no such helper). */
export function assertIncludes(text: string | undefined, part: string, message?: string): void {
  if (!text?.includes(part)) {
    throw new Error(
      message ?? `expected ${JSON.stringify(text)} to include ${JSON.stringify(part)}`,
    );
  }
}
