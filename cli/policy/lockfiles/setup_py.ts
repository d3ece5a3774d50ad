/**
 * `setup.py`, read without running it: the literal lists given to
 * `install_requires`, `setup_requires` and `tests_require` and the literal
 * dict of lists given to `extras_require` (as keyword arguments or dict
 * keys). Anything else there (a variable, a call, an f-string) is a warning
 * naming the line, never executed and never guessed.
 *
 * @module
 */

import { requirementName } from "../pyproject.ts";
import { declare, type Declared, type ManifestRead } from "./declared.ts";
import { lineAt } from "./locate.ts";

const LIST_KEYS = ["install_requires", "setup_requires", "tests_require"];
const KEY =
  /(?:\b|["'])(install_requires|setup_requires|tests_require|extras_require)["']?\s*[=:]\s*/g;

/** A scanner over Python source: whitespace, comments, string literals, punctuation. */
class Scanner {
  constructor(readonly text: string, public at: number) {}

  skip(): void {
    for (;;) {
      const rest = /^(?:\s+|#[^\n]*)/.exec(this.text.slice(this.at));
      if (!rest || !rest[0]) return;
      this.at += rest[0].length;
    }
  }

  peek(): string {
    this.skip();
    return this.text[this.at] ?? "";
  }

  /** A (possibly implicitly concatenated) string literal, or null when none starts here. */
  string(): string | null {
    let out: string | null = null;
    for (;;) {
      this.skip();
      const m = /^([rRuUbB]{0,2})("""|'''|"|')/.exec(this.text.slice(this.at));
      if (!m) return out;
      const raw = /r/i.test(m[1]);
      const quote = m[2];
      let i = this.at + m[0].length;
      let value = "";
      while (i < this.text.length && !this.text.startsWith(quote, i)) {
        if (this.text[i] === "\\" && !raw) {
          value += this.text[i + 1] === "\n" ? "" : this.text[i + 1];
          i += 2;
        } else value += this.text[i++];
      }
      if (i >= this.text.length) return null;
      this.at = i + quote.length;
      out = (out ?? "") + value;
    }
  }
}

/** A literal list/tuple of strings at the scanner, or null when it is anything else. */
function stringList(s: Scanner): Array<{ value: string; at: number }> | null {
  const open = s.peek();
  const close = open === "[" ? "]" : open === "(" ? ")" : null;
  if (close === null) return null;
  s.at++;
  const items: Array<{ value: string; at: number }> = [];
  for (;;) {
    if (s.peek() === close) {
      s.at++;
      return items;
    }
    const at = s.at;
    const value = s.string();
    if (value === null) return null;
    items.push({ value, at });
    const next = s.peek();
    if (next === ",") s.at++;
    else if (next !== close) return null;
  }
}

/** A literal dict of string → list of strings at the scanner, or null. */
function stringListDict(s: Scanner): Array<{ value: string; at: number }> | null {
  if (s.peek() !== "{") return null;
  s.at++;
  const items: Array<{ value: string; at: number }> = [];
  for (;;) {
    if (s.peek() === "}") {
      s.at++;
      return items;
    }
    if (s.string() === null || s.peek() !== ":") return null;
    s.at++;
    const list = stringList(s);
    if (list === null) return null;
    items.push(...list);
    const next = s.peek();
    if (next === ",") s.at++;
    else if (next !== "}") return null;
  }
}

function addItems(
  out: Declared[],
  warnings: string[],
  source: string,
  file: string,
  items: Array<{ value: string; at: number }>,
): void {
  for (const { value, at } of items) {
    const spec = value.trim();
    if (!spec || spec.startsWith("#")) continue;
    const name = requirementName(spec);
    if (name) declare(out, name, spec, lineAt(source, at));
    else warnings.push(`${file} line ${lineAt(source, at)}: not a requirement: ${spec}`);
  }
}

/** Reads setup.py text; `file` names it in warnings. */
export function readSetupPy(source: string, file: string): ManifestRead {
  const declared: Declared[] = [];
  const warnings: string[] = [];
  for (const match of source.matchAll(KEY)) {
    const key = match[1];
    const lineStart = source.lastIndexOf("\n", match.index!) + 1;
    if (source.slice(lineStart, match.index!).includes("#")) continue; // inside a comment
    const s = new Scanner(source, match.index! + match[0].length);
    const items = LIST_KEYS.includes(key) ? stringList(s) : stringListDict(s);
    if (items === null) {
      warnings.push(
        `${file} line ${lineAt(source, match.index!)}: ${key} is not a literal ` +
          `${key === "extras_require" ? "dict of lists" : "list"}; not read`,
      );
      continue;
    }
    addItems(declared, warnings, source, file, items);
  }
  return { declared, warnings };
}
