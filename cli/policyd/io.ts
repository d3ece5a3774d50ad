/**
 * What a `policyd` subcommand may touch: its output streams, the
 * environment and a way to wait for a stop signal. Tests pass their own.
 *
 * @module
 */
import type { Environment } from "../../src/settings.ts";

/** I/O of a command. */
export interface CommandIO {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Environment;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
  stopSignal: Promise<void>;
}

/** A failure with a one-line message and an exit code. */
export class CommandError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
    this.name = "CommandError";
  }
}

/** Exit code of usage errors (BSD sysexits EX_USAGE), shared with `policy`. */
export const EXIT_USAGE = 64;
