/**
 * Secret redaction: applied to every recorded value (request and response
 * headers, query, path, bodies, step labels, intents) before anything leaves
 * the test isolate. Two rules: values under credential-like **names**, and
 * credential-like **values** wherever they appear. Both can be extended, and a
 * field can be allow-listed.
 *
 * @module
 */

import {
  DEFAULT_ALLOWED_FIELDS,
  HIGH_ENTROPY_RULE,
  REDACTED,
  SECRET_KEY_WORDS,
  TOKEN_SHAPES,
} from "./redaction_rules.ts";

export * from "./redaction_rules.ts";

/** Extensions of the default redaction (the runner's `--redact-key`, `--redact-pattern`, `--keep`). */
export interface RedactionOptions {
  /** More key-name words (matched like the defaults: contained in the normalised name). */
  keys?: readonly string[];
  /** More value patterns (regular-expression source or `RegExp`), replaced anywhere in strings. */
  patterns?: readonly (string | RegExp)[];
  /**
   * Fields never redacted by name or entropy: a key name (`author`) or a
   * dotted path ending (`auth.backend`), compared normalised. Known credential
   * shapes are still replaced in them.
   */
  allow?: readonly string[];
}

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9.]/g, "");

/**
 * Applies the redaction rules: the defaults plus the given extensions.
 *
 * @example
 * ```ts
 * import { Redactor } from "./redact.ts";
 * const redactor = new Redactor({ keys: ["pin"], allow: ["author"] });
 * redactor.value({ pin: 1234, author: "ann", admin_key: "k" });
 * // { pin: "[REDACTED]", author: "ann", admin_key: "[REDACTED]" }
 * ```
 */
export class Redactor {
  readonly #words: string[];
  readonly #patterns: RegExp[];
  readonly #allow: string[];
  readonly #shown: { words: string[]; allow: string[] };

  /** Builds a redactor; throws when an extra pattern is not a valid regular expression. */
  constructor(options: RedactionOptions = {}) {
    this.#words = [...SECRET_KEY_WORDS, ...(options.keys ?? []).map(normalise)].filter((w) =>
      w !== ""
    );
    this.#patterns = [
      ...TOKEN_SHAPES.map((s) => s.pattern),
      ...(options.patterns ?? []).map((p) =>
        typeof p === "string" ? new RegExp(p, "g") : new RegExp(p.source, unique(p.flags + "g"))
      ),
    ];
    const allow = [...DEFAULT_ALLOWED_FIELDS, ...(options.allow ?? [])];
    this.#allow = allow.map(normalise);
    this.#shown = { words: [...SECRET_KEY_WORDS, ...(options.keys ?? [])], allow };
  }

  /** Whether a key name (JSON property, query parameter, header) names a secret. */
  isSecretKey(key: string): boolean {
    const name = normalise(key).replace(/\./g, "");
    return this.#words.some((word) => name.includes(word));
  }

  /** Whether the field at `path` (its keys, outermost first) is allow-listed. */
  isAllowed(path: readonly string[]): boolean {
    const dotted = path.map(normalise).join(".");
    return this.#allow.some((entry) =>
      dotted === entry || dotted.endsWith(`.${entry}`) ||
      (!entry.includes(".") && normalise(path.at(-1) ?? "") === entry)
    );
  }

  /**
   * Replaces every credential-shaped part of a string (known token shapes,
   * extra patterns, high-entropy words) with `[REDACTED]`. `allowed` skips
   * the entropy rule (an allow-listed field).
   */
  string(value: string, allowed = false): string {
    const shaped = this.#patterns.reduce((text, pattern) => text.replace(pattern, REDACTED), value);
    return allowed ? shaped : shaped.replace(WORD, (word) => redactWord(word));
  }

  /**
   * A deep copy of a JSON-like value with secrets replaced: string and number
   * leaves under a secret key (at any depth above them) become `"[REDACTED]"`
   * (booleans and `null` carry no secret and are kept, so is the shape), and
   * credential-shaped parts of every other string are replaced.
   */
  value<T>(value: T): T {
    return this.#walk(value, [], false) as T;
  }

  /** Header or query values: a secret name hides the value, others are scanned. */
  entries<V extends string | string[]>(record: Record<string, V>): Record<string, V> {
    const out: Record<string, V> = {};
    for (const [name, value] of Object.entries(record)) {
      const hidden = this.#hidden([name]);
      const one = (v: string) => hidden ? REDACTED : this.string(v, this.isAllowed([name]));
      out[this.string(name)] = (Array.isArray(value) ? value.map(one) : one(value)) as V;
    }
    return out;
  }

  #hidden(path: readonly string[]): boolean {
    return !this.isAllowed(path) && this.isSecretKey(path.at(-1) ?? "");
  }

  #walk(value: unknown, path: string[], secret: boolean): unknown {
    if (typeof value === "string") {
      return secret ? REDACTED : this.string(value, this.isAllowed(path));
    }
    if (typeof value === "number" || typeof value === "bigint") return secret ? REDACTED : value;
    if (Array.isArray(value)) return value.map((item) => this.#walk(item, path, secret));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value)) {
        const next = [...path, key];
        const hidden = this.isAllowed(next) ? false : secret || this.isSecretKey(key);
        out[this.string(key)] = this.#walk(inner, next, hidden);
      }
      return out;
    }
    return value;
  }

  /** What this redactor replaces, in one paragraph (the document's preamble). */
  describe(): string {
    const words = this.#shown.words.map((w) => `\`${w}\``).join(", ");
    const allow = this.#shown.allow.map((w) => `\`${w}\``).join(", ");
    const extra = this.#patterns.length - TOKEN_SHAPES.length;
    return `Secrets are replaced by \`[REDACTED]\` before anything is written: string and number ` +
      `values of request and response headers, query parameters and JSON body fields whose ` +
      `name, lowercased with separators removed, contains ${words} (and everything beneath ` +
      `such a field); and, anywhere in paths, values, text bodies, step labels and intents, ` +
      `${TOKEN_SHAPES.map((s) => s.label).join(", ")}; ${HIGH_ENTROPY_RULE}` +
      (extra > 0
        ? `; and ${extra === 1 ? "one project pattern" : `${extra} project patterns`}`
        : "") +
      `. Not redacted by name or entropy: ${allow}.`;
  }
}

// Candidate words for the entropy rule: runs of base64/base64url/token characters.
const WORD = /[A-Za-z0-9+/=_\-.~]{20,}/g;

function redactWord(word: string): string {
  // A path is judged segment by segment (`/todos/<id>`), so one long id does not hide the path.
  if (word.includes("/") && (word.startsWith("/") || word.includes("//"))) {
    return word.split("/").map((part) => isHighEntropy(part) ? REDACTED : part).join("/");
  }
  return isHighEntropy(word) ? REDACTED : word;
}

/**
 * Whether a word looks like a random key: 20 or more characters mixing upper
 * case, lower case and digits, with a Shannon entropy of at least
 * 0.7 × log2(length) bits per character, and not base64 of printable text.
 *
 * @example
 * ```ts
 * import { isHighEntropy } from "./redact.ts";
 * isHighEntropy("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"); // true
 * isHighEntropy("MjAyNi0xMS0yMVQwOTowMDowMC4wMDBafDM");       // false (base64 of a timestamp)
 * ```
 */
export function isHighEntropy(word: string): boolean {
  if (word.length < 20) return false;
  if (!/[a-z]/.test(word) || !/[A-Z]/.test(word) || !/[0-9]/.test(word)) return false;
  if (shannon(word) < 0.7 * Math.log2(Math.min(word.length, 64))) return false;
  return !decodesToText(word);
}

function shannon(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function decodesToText(word: string): boolean {
  const base64 = word.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (!/^[A-Za-z0-9+/]+$/.test(base64) || base64.length % 4 === 1) return false;
  let decoded: string;
  try {
    decoded = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  } catch {
    return false;
  }
  return /^[\x20-\x7e\t\r\n]+$/.test(decoded);
}

function unique(flags: string): string {
  return [...new Set(flags)].join("");
}

const DEFAULT = new Redactor();

/**
 * Whether a key name names a secret under the default rules.
 *
 * @example
 * ```ts
 * import { isSecretKey } from "./redact.ts";
 * isSecretKey("X-Admin-Key"); // true
 * isSecretKey("package");     // false
 * ```
 */
export function isSecretKey(key: string): boolean {
  return DEFAULT.isSecretKey(key);
}

/**
 * Replaces credential-shaped parts of a string under the default rules.
 *
 * @example
 * ```ts
 * import { redactString } from "./redact.ts";
 * redactString("use Bearer abcdefgh12345"); // "use [REDACTED]"
 * ```
 */
export function redactString(value: string): string {
  return DEFAULT.string(value);
}

/**
 * A deep copy of a JSON-like value with secrets replaced under the default rules.
 *
 * @example
 * ```ts
 * import { redact } from "./redact.ts";
 * redact({ user: "ann", pwd: "hunter2" }); // { user: "ann", pwd: "[REDACTED]" }
 * ```
 */
export function redact<T>(value: T): T {
  return DEFAULT.value(value);
}
