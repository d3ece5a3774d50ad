/**
 * Structured JSON logging on stderr (SPEC §14). A logger is a value passed
 * to whoever needs it; `child()` adds fields such as a request id.
 *
 * @module
 */

import { redactValue } from "./redact.ts";

/** Log levels, least to most severe. */
export type LogLevel = "debug" | "info" | "warn" | "error";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A structured logger. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** Whether a line at `level` would be written: skip building its fields when not. */
  enabled(level: LogLevel): boolean;
  /** A logger that adds `fields` to every line. */
  child(fields: Record<string, unknown>): Logger;
}

/** Where log lines go; one JSON document per call. */
export type LogSink = (line: string) => void;

const encoder = new TextEncoder();

/** stderr lines not yet written: the lines of the current turn of the event loop. */
let pendingLines: string[] = [];
let flushQueued = false;

function writeAll(bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += Deno.stderr.writeSync(bytes.subarray(offset));
}

/**
 * Writes the buffered stderr lines now. Called at the end of every turn, on
 * `unload`, on an uncaught error, and by the command line before it exits
 * or writes to stderr itself, so no line is lost or reordered.
 */
export function flushLogLines(): void {
  flushQueued = false;
  if (pendingLines.length === 0) return;
  const text = pendingLines.join("\n") + "\n";
  pendingLines = [];
  try {
    writeAll(encoder.encode(text));
  } catch {
    // stderr closed: nothing sensible to do.
  }
}

let exitHooksInstalled = false;
function installExitHooks(): void {
  exitHooksInstalled = true;
  // Without preventDefault: the runtime still reports the error and exits.
  for (const event of ["unload", "error", "unhandledrejection"]) {
    globalThis.addEventListener(event, flushLogLines);
  }
}

/**
 * Writes lines to stderr, one write per turn of the event loop: a busy
 * server logs one access line per request, and a `write` system call per
 * line was a measurable share of the evaluate path (docs/performance.md).
 * Lines keep their order, and lines from concurrent requests never
 * interleave. Call {@link flushLogLines} before `Deno.exit`.
 */
export const stderrSink: LogSink = (line) => {
  pendingLines.push(line);
  if (flushQueued) return;
  flushQueued = true;
  if (!exitHooksInstalled) installExitHooks();
  setTimeout(flushLogLines, 0);
};

/** Writes a line to stderr at once (warnings and errors: never held back). */
export const stderrSinkNow: LogSink = (line) => {
  pendingLines.push(line);
  flushLogLines();
};

let isoMs = NaN;
let isoText = "";

/** The time as ISO 8601, formatted once per millisecond (a busy server logs many lines in one). */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}

/** The JSON logger: a class, so a per-request `child()` is one small object, not six closures. */
class JsonLogger implements Logger {
  constructor(
    private readonly level: LogLevel,
    private readonly sink: LogSink,
    private readonly base: Record<string, unknown>,
  ) {}

  private emit(lvl: LogLevel, msg: string, fields?: Record<string, unknown>): void {
    if (ORDER[lvl] < ORDER[this.level]) return;
    const line = { ts: isoNow(), level: lvl, msg, ...this.base, ...fields };
    // Credentials in URLs never reach the log, whoever wrote the field.
    const text = JSON.stringify(redactValue(line));
    // The buffered stderr sink holds debug and info lines until the end of the turn.
    if (this.sink === stderrSink && ORDER[lvl] >= ORDER.warn) stderrSinkNow(text);
    else this.sink(text);
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    this.emit("debug", msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.emit("info", msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.emit("warn", msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.emit("error", msg, fields);
  }
  enabled(lvl: LogLevel): boolean {
    return ORDER[lvl] >= ORDER[this.level];
  }
  child(fields: Record<string, unknown>): Logger {
    return new JsonLogger(this.level, this.sink, { ...this.base, ...fields });
  }
}

/**
 * Creates a JSON logger.
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const log = createLogger("info", (l) => lines.push(l));
 * log.child({ request_id: "r1" }).info("hello", { n: 1 });
 * JSON.parse(lines[0]).request_id; // "r1"
 * ```
 */
export function createLogger(
  level: LogLevel = "info",
  sink: LogSink = stderrSink,
  base: Record<string, unknown> = {},
): Logger {
  return new JsonLogger(level, sink, base);
}

/** A logger that drops everything (tests that do not look at logs). */
export const silentLogger: Logger = createLogger("error", () => {});
