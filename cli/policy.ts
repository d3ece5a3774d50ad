/**
 * `policy`, the policyd client: takes the fast path of `check`, `hook` and
 * `precommit` (`policy/fast_path.ts`), else runs the commander program
 * (`policy/program.ts`), and maps every outcome to an exit code in one
 * place. Only this file touches the process (argv, stdin, exit); everything
 * else receives an {@link Io}.
 *
 * @module
 */

import { ClientError, exitCodeFor, oneLine } from "./policy/exit_codes.ts";
import type { Io } from "./policy/io.ts";
import { fastCommand } from "./policy/fast_path.ts";
import { lazyImport } from "./policy/lazy_import.ts";
import { BUNDLE_ENTRY_NAME, BUNDLED, EAGER_DIR, EAGER_V8_FLAGS } from "./policy/build_info.ts";

export { CLIENT_VERSION } from "./policy/version.ts";

/**
 * Runs the client with `args` (without the program name) and returns the
 * exit code. Never throws and never exits the process.
 */
export async function run(args: string[], io: Io): Promise<number> {
  try {
    const fast = fastCommand(args);
    if (fast) return await fast(io);
    const { runProgram } = await lazyImport<typeof import("./policy/program.ts")>(
      new URL("./policy/program.ts", import.meta.url),
    );
    return await runProgram(args, io);
  } catch (error) {
    return failure(error, io);
  }
}

/** Prints the one-line message of a failed command and returns its exit code. */
function failure(error: unknown, io: Io): number {
  const message = error instanceof ClientError
    ? error.message
    : `internal error: ${(error as Error)?.message ?? error}`;
  io.stderr(`policy: ${oneLine(message)}\n`);
  return exitCodeFor(error);
}

/** How installed hooks call this client back (see docs/client.md, "Installed command"). */
export function selfCommand(): string[] {
  const exe = Deno.execPath();
  const here = new URL(import.meta.url);
  if (!/^deno(\.exe)?$/.test(exe.split(/[\\/]/).pop() ?? "") || here.protocol !== "file:") {
    return [exe]; // a compiled `policy` binary
  }
  // The bundle (tools/bundle_client.ts) needs no configuration; none is looked for either.
  if (BUNDLED) return [exe, "run", "-A", "--no-config", import.meta.filename!];
  // No node:path/node:url here: loading the Node compatibility layer would
  // cost every command its start-up time (docs/performance.md).
  const script = import.meta.filename!;
  let config: string | null = null;
  try {
    const candidate = Deno.realPathSync(new URL("../deno.json", here));
    config = Deno.statSync(candidate).isFile ? candidate : null;
  } catch {
    config = null;
  }
  return [exe, "run", "-A", ...(config ? ["--config", config] : []), script];
}

/**
 * How the git shim calls the bundled client back: its eager copy with V8's
 * eager compilation, so that every function of the check comes from Deno's
 * code cache (tools/bundle_client.ts, "The eager copy"). Null from the
 * sources, a compiled binary, or a bundle without the copy.
 */
export function precommitCommand(): string[] | null {
  const file = import.meta.filename;
  if (!BUNDLED || file === undefined) return null;
  const sep = file.includes("\\") ? "\\" : "/";
  const eager = [file.slice(0, file.lastIndexOf(sep)), EAGER_DIR, BUNDLE_ENTRY_NAME].join(sep);
  try {
    if (!Deno.statSync(eager).isFile) return null;
  } catch {
    return null;
  }
  return [Deno.execPath(), "run", "-A", "--no-config", EAGER_V8_FLAGS, eager];
}

/** All of `reader` as UTF-8 text (a `Response` would load Deno's fetch stack). */
async function readAllText(reader: { read(p: Uint8Array): Promise<number | null> }) {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(64 * 1024);
  for (let n; (n = await reader.read(buffer)) !== null;) chunks.push(buffer.slice(0, n));
  const decoder = new TextDecoder();
  return chunks.map((c, i) => decoder.decode(c, { stream: i < chunks.length - 1 })).join("");
}

/**
 * One line of `reader` (up to and without `\n`), read a byte at a time: a
 * terminal hands over a line when Enter is pressed, so an answer such as
 * `y` is complete without waiting for end of input. Null at end of input
 * before any byte.
 */
export async function readOneLine(
  reader: { read(p: Uint8Array): Promise<number | null> },
): Promise<string | null> {
  const bytes: number[] = [];
  const buffer = new Uint8Array(1);
  for (let n; (n = await reader.read(buffer)) !== null;) {
    if (n === 0) continue;
    if (buffer[0] === 0x0a) break;
    bytes.push(buffer[0]);
  }
  if (bytes.length === 0 && buffer[0] !== 0x0a) return null;
  return new TextDecoder().decode(new Uint8Array(bytes)).replace(/\r$/, "");
}

/** The real process as an {@link Io}. */
export function processIo(): Io {
  const enc = new TextEncoder();
  return {
    cwd: Deno.cwd(),
    env: (name) => Deno.env.get(name),
    stdout: (text) => void Deno.stdout.writeSync(enc.encode(text)),
    stderr: (text) => void Deno.stderr.writeSync(enc.encode(text)),
    readStdin: () => readAllText(Deno.stdin),
    readLine: () => readOneLine(Deno.stdin),
    stdinIsTerminal: () => Deno.stdin.isTerminal(),
    // Only `init` records them: computed on use, not on every start.
    get selfCommand() {
      return selfCommand();
    },
    get precommitCommand() {
      return precommitCommand() ?? undefined;
    },
  };
}

if (import.meta.main) {
  Deno.exit(await run(Deno.args, processIo()));
}
