/**
 * Running the command lines as real subprocesses.
 *
 * @module
 */

/** Absolute path of the repository root. */
export const REPO_ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

/** Result of a finished command. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno run -A <script> ...args` in `cwd` and waits for it. */
export async function runDenoScript(
  script: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; stdin?: string } = {},
): Promise<CommandResult> {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", `${REPO_ROOT}/deno.json`, `${REPO_ROOT}/${script}`, ...args],
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = command.spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Starts a long-running `deno run` process and waits until stdout matches `ready`. */
export async function spawnUntil(
  script: string,
  args: string[],
  ready: RegExp,
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ child: Deno.ChildProcess; match: RegExpMatchArray; output: () => string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", `${REPO_ROOT}/deno.json`, `${REPO_ROOT}/${script}`, ...args],
    cwd: options.cwd,
    env: options.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  child.stderr.pipeTo(new WritableStream({ write() {} })).catch(() => {});
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    const match = text.match(ready);
    if (match) {
      // Keep draining stdout so the child never blocks on a full pipe.
      (async () => {
        for (;;) {
          const { value: more, done: end } = await reader.read().catch(() => ({
            value: "",
            done: true,
          }));
          if (end) break;
          text += more;
        }
      })();
      return { child, match, output: () => text };
    }
  }
  child.kill("SIGKILL");
  throw new Error(`process did not print ${ready} in time; output so far:\n${text}`);
}
