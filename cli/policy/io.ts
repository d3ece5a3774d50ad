/**
 * The process as the client's commands see it. Only `cli/policy.ts` builds
 * the real one; tests pass fakes.
 *
 * @module
 */

/** Process access handed to `run()` and to every command. */
export interface Io {
  /** Working directory the command starts from. */
  cwd: string;
  /** Reads an environment variable. */
  env(name: string): string | undefined;
  /** Writes text to standard output as is. */
  stdout(text: string): void;
  /** Writes text to standard error as is. */
  stderr(text: string): void;
  /** Reads all of standard input. */
  readStdin(): Promise<string>;
  /**
   * Reads one line of standard input (an interactive answer), without its
   * line ending; null at end of input before any character.
   */
  readLine(): Promise<string | null>;
  /** Whether standard input is an interactive terminal. */
  stdinIsTerminal(): boolean;
  /** The command that runs this client (argv prefix), recorded by installers. */
  selfCommand: string[];
  /**
   * The command the git shim runs the client with, when it differs from
   * {@link selfCommand} (the bundle's eager copy: `tools/bundle_client.ts`).
   */
  precommitCommand?: string[];
  /** HTTP fetch; the global one when absent. */
  fetch?: typeof fetch;
}
