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

/** Writes a line to stderr synchronously, so lines from concurrent requests never interleave. */
export const stderrSink: LogSink = (line) => {
  try {
    Deno.stderr.writeSync(encoder.encode(line + "\n"));
  } catch {
    // stderr closed: nothing sensible to do.
  }
};

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
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const line = { ts: new Date().toISOString(), level: lvl, msg, ...base, ...fields };
    // Credentials in URLs never reach the log, whoever wrote the field.
    sink(JSON.stringify(redactValue(line)));
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    enabled: (lvl) => ORDER[lvl] >= ORDER[level],
    child: (fields) => createLogger(level, sink, { ...base, ...fields }),
  };
}

/** A logger that drops everything (tests that do not look at logs). */
export const silentLogger: Logger = createLogger("error", () => {});
