/**
 * Test helper: runs the current `deno` executable and collects its output.
 *
 * @module
 */

/** What a `deno` run printed and how it ended. */
export interface DenoRun {
  success: boolean;
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `deno <args>` in `cwd` without colours (and with `env` added).
 *
 * @example
 * ```ts ignore
 * import { runDeno } from "./run_deno.ts";
 * const { success } = await runDeno(".", ["--version"]);
 * ```
 */
export async function runDeno(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<DenoRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return {
    success: out.success,
    code: out.code,
    stdout: text(out.stdout),
    stderr: text(out.stderr),
  };
}
