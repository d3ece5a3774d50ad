/**
 * A reader for the TOML most `pyproject.toml` files are written in: the flat
 * values of `flat_toml.ts` (strings without escapes, booleans, plain
 * numbers), arrays of such strings over one or more lines (comments and a
 * trailing comma allowed), and `[table]` / `[dotted.table]` headers of bare
 * keys. Anything else (inline tables, arrays of tables, dotted or quoted keys,
 * escapes, multi-line strings, dates, a table or key defined twice, a syntax
 * error) returns null and goes to smol-toml, which owns the whole grammar and
 * its error messages; loading and running smol-toml costs a pre-commit run
 * with a staged `pyproject.toml` about 5–8 ms (docs/performance.md). A test
 * compares both readers on every form accepted here and on the pyproject
 * fixtures.
 *
 * @module
 */

import {
  BASIC_STRING,
  COMMENT,
  FLAT_VALUE,
  type FlatValue,
  flatValue,
  LITERAL_STRING,
} from "./flat_toml.ts";

/** A value this reader accepts. */
export type SimpleValue = FlatValue | string[] | SimpleTable;

/** A table this reader builds. */
export interface SimpleTable {
  [key: string]: SimpleValue;
}

const WS = /[ \t]*/y;
const COMMENT_AT = new RegExp(COMMENT, "y");
const KEY = /[A-Za-z0-9_-]+/y;
const HEADER = /\[([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\]/y;
const SCALAR = new RegExp(FLAT_VALUE, "y");
const STRING = new RegExp(`${BASIC_STRING}|${LITERAL_STRING}`, "y");
const NEWLINE = /\r?\n/y;

/** Tables without a prototype, as smol-toml builds them (`"toString" in table` is false). */
const newTable = (): SimpleTable => Object.create(null);

/**
 * The document `text` holds, or null when it is not in the simple subset.
 *
 * @example
 * ```ts
 * import { parseSimpleToml } from "./simple_toml.ts";
 * parseSimpleToml('[project]\ndependencies = [\n  "requests>=2", # http\n]\n');
 * // { project: { dependencies: ["requests>=2"] } }
 * parseSimpleToml("[project]\nauthors = [{ name = \"x\" }]\n"); // null
 * ```
 */
export function parseSimpleToml(text: string): SimpleTable | null {
  let at = 0;
  const eat = (re: RegExp): RegExpExecArray | null => {
    re.lastIndex = at;
    const m = re.exec(text);
    if (m) at = re.lastIndex;
    return m;
  };
  /** Whitespace, a comment, then the end of the line or of the text. */
  const endOfLine = () => {
    eat(WS);
    eat(COMMENT_AT);
    return at === text.length || eat(NEWLINE) !== null;
  };
  /** Whitespace, comments and newlines inside an array. */
  const arraySpace = () => {
    for (let from = -1; from !== at;) {
      from = at;
      eat(WS);
      eat(COMMENT_AT);
      eat(NEWLINE);
    }
  };
  const array = (): string[] | null => {
    const items: string[] = [];
    at++; // "["
    for (;;) {
      arraySpace();
      if (text[at] === "]") break;
      const item = eat(STRING);
      if (!item) return null;
      items.push(item[0].slice(1, -1));
      arraySpace();
      if (text[at] === ",") at++;
      else if (text[at] !== "]") return null;
    }
    at++; // "]"
    return items;
  };

  const root = newTable();
  let table = root;
  while (at < text.length) {
    eat(WS);
    const header = text[at] === "[" ? eat(HEADER) : null;
    if (header) {
      const keys = header[1].split(".");
      const last = keys.pop()!;
      let parent = root;
      for (const key of keys) {
        const next = Object.hasOwn(parent, key) ? parent[key] : (parent[key] = newTable());
        if (typeof next !== "object" || Array.isArray(next)) return null;
        parent = next;
      }
      // A table defined twice, or after a sub-table (valid TOML, rare): smol-toml decides.
      if (Object.hasOwn(parent, last) || last === "__proto__") return null;
      table = parent[last] = newTable();
    } else if (text[at] === "[") {
      return null;
    } else {
      const key = eat(KEY);
      if (key) {
        if (Object.hasOwn(table, key[0]) || key[0] === "__proto__") return null;
        eat(WS);
        if (text[at] !== "=") return null;
        at++;
        eat(WS);
        let value: SimpleValue | null;
        if (text[at] === "[") value = array();
        else {
          const scalar = eat(SCALAR);
          value = scalar && flatValue(scalar[0]);
        }
        if (value === null) return null;
        table[key[0]] = value;
      }
    }
    if (!endOfLine()) return null;
  }
  return root;
}
