/**
 * A reader for the TOML that `policy init` writes and people keep in
 * `.policy.toml`: `key = value` lines, comments and blank lines, with values
 * that are strings without escapes, booleans, decimal integers or plain
 * decimal fractions. Anything else (tables, arrays, escapes, dates, a repeated
 * key, a syntax error) returns null and goes to smol-toml, which owns the
 * whole grammar and its error messages; loading smol-toml costs every command
 * a few milliseconds of start-up (docs/performance.md, "Client start-up").
 * A test compares both readers on every form accepted here.
 *
 * @module
 */

/** A value this reader accepts. */
export type FlatValue = string | number | boolean;

/** A basic string without escapes (regular-expression source). */
export const BASIC_STRING = '"[^"\\\\\\u0000-\\u001f\\u007f]*"';
/** A literal string (regular-expression source). */
export const LITERAL_STRING = "'[^'\\u0000-\\u0008\\u000a-\\u001f\\u007f]*'";
/** Any value this reader accepts (regular-expression source). */
export const FLAT_VALUE = [
  BASIC_STRING,
  LITERAL_STRING,
  "true|false",
  "[+-]?(?:0|[1-9][0-9]{0,14})(?:\\.[0-9]{1,15})?", // no _, exponents or leading zeros
].join("|");

/** A comment to the end of the line (regular-expression source). */
export const COMMENT = "#[^\\u0000-\\u0008\\u000a-\\u001f\\u007f]*";

const LINE = new RegExp(
  "^[ \\t]*(?:([A-Za-z0-9_-]+)[ \\t]*=[ \\t]*(" + FLAT_VALUE + "))?[ \\t]*(?:" + COMMENT + ")?$",
);

/** The value of a text matched by {@link FLAT_VALUE}. */
export function flatValue(text: string): FlatValue {
  return text.startsWith('"') || text.startsWith("'")
    ? text.slice(1, -1)
    : text === "true" || text === "false"
    ? text === "true"
    : Number(text);
}

/**
 * The table `text` holds, or null when it is not in the flat subset.
 *
 * @example
 * ```ts
 * import { parseFlatToml } from "./flat_toml.ts";
 * parseFlatToml('project = "shop" # name\nfail_open = false\n'); // { project: "shop", fail_open: false }
 * parseFlatToml("[tool]\nx = 1\n"); // null
 * ```
 */
export function parseFlatToml(text: string): Record<string, FlatValue> | null {
  const table: Record<string, FlatValue> = {};
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const match = LINE.exec(line);
    if (!match) return null;
    const [, key, value] = match;
    if (key === undefined) continue;
    if (Object.hasOwn(table, key) || key === "__proto__") return null;
    table[key] = flatValue(value);
  }
  return table;
}
