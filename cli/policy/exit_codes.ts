/**
 * Typed client errors and the one table that maps outcomes to exit codes.
 *
 * Commands throw a {@link ClientError} for every expected failure; `run()`
 * catches it and asks {@link exitCodeFor} for the process exit code, so the
 * mapping lives in one place (SPEC §11, §15.13, §15.23).
 *
 * @module
 */

/** Exit codes of `policy`. Values 64–78 follow BSD sysexits. */
export const EXIT = {
  OK: 0,
  /** check: provisional; audit: provisional or transport errors; precommit: blocked. */
  PROVISIONAL: 1,
  /** check/audit: a dependency is DENIED. */
  DENIED: 2,
  /** The server could not be reached and fail-open is off. */
  UNREACHABLE: 3,
  /** The server answered 4xx/5xx. */
  SERVER_ERROR: 4,
  /** Unknown flag or subcommand, missing argument or required option. */
  USAGE: 64,
  /** pyproject.toml cannot be parsed. */
  DATA: 65,
  /** pyproject.toml is missing where a command needs it. */
  NO_INPUT: 66,
  /** A bug in the client itself. */
  INTERNAL: 70,
  /** .policy.toml is invalid or the org-mode API key variable is missing. */
  CONFIG: 78,
} as const;

/** Stable codes of expected client failures. */
export type ClientErrorCode =
  | "usage"
  | "config"
  | "unreachable"
  | "server_error"
  | "no_input"
  | "bad_input";

/**
 * The kinds of a client error (its class and superclasses), under a
 * registered symbol: the bundled client holds two copies of this module
 * (tools/bundle_client.ts), and an error made by one must be an
 * `instanceof` the other's classes.
 */
const KINDS = Symbol.for("policyd.client-error-kinds");

/** Adds `kind` to the kinds of `error`. */
function mark(error: Error, kind: string): void {
  const holder = error as unknown as Record<symbol, string[] | undefined>;
  const kinds = holder[KINDS];
  if (kinds) kinds.push(kind);
  else Object.defineProperty(error, KINDS, { value: [kind], enumerable: false });
}

/** An expected failure of the client, carrying a one-line message. */
export class ClientError extends Error {
  /** The kind `instanceof` tests (each subclass names its own). */
  static readonly kind: string = "ClientError";

  /** `instanceof` by kind, so that it holds across copies of this module. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    const kinds = (value as Record<symbol, unknown>)[KINDS];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }

  /** Creates an error with a stable code and a one-line, user-facing message. */
  constructor(readonly code: ClientErrorCode, message: string) {
    super(message);
    this.name = "ClientError";
    mark(this, "ClientError");
  }
}

/** The server could not be reached (connection refused, DNS, time-out). */
export class ServerUnreachable extends ClientError {
  static override readonly kind: string = "ServerUnreachable";

  /** `url` is the server base URL; `cause` the transport failure text. */
  constructor(readonly url: string, readonly detail: string) {
    super("unreachable", `policyd server at ${url} is unreachable: ${detail}`);
    this.name = "ServerUnreachable";
    mark(this, "ServerUnreachable");
  }
}

/** The server answered with an HTTP error; `detail` comes from problem+json. */
export class ServerError extends ClientError {
  static override readonly kind: string = "ServerError";

  /** `status` is the HTTP status, `detail` the problem detail (or title/body). */
  constructor(readonly status: number, readonly detail: string) {
    super("server_error", `policyd server error ${status}: ${detail}`);
    this.name = "ServerError";
    mark(this, "ServerError");
  }
}

/** Maps a thrown error to the exit code of a regular command. */
export function exitCodeFor(error: unknown): number {
  if (!(error instanceof ClientError)) return EXIT.INTERNAL;
  switch (error.code) {
    case "usage":
      return EXIT.USAGE;
    case "config":
      return EXIT.CONFIG;
    case "unreachable":
      return EXIT.UNREACHABLE;
    case "server_error":
      return EXIT.SERVER_ERROR;
    case "no_input":
      return EXIT.NO_INPUT;
    case "bad_input":
      return EXIT.DATA;
  }
}

/** Flattens a message to one line, so errors never span several lines. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
