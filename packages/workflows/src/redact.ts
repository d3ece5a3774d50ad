/**
 * Secret redaction (SPEC §13): applied to every recorded value before anything
 * leaves the test isolate.
 *
 * @module
 */

/** The replacement written instead of a secret. */
export const REDACTED = "[REDACTED]";

// Key names are compared after lowercasing and removing `-` and `_`, and match
// when they contain one of these words (`X-Api-Key`, `session_id`, `db_password`).
const SECRET_KEY_WORDS = [
  "password",
  "passwd",
  "secret",
  "token",
  "apikey",
  "authorization",
  "cookie",
  "session",
  "privatekey",
  "credential",
  "signature",
];

// Token-shaped values, found anywhere inside a string.
const TOKEN_PATTERNS: RegExp[] = [
  /-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END[A-Z ]*PRIVATE KEY-----|$)/g,
  /\bgh[pousr]_[A-Za-z0-9]{16,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{16,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bxox[a-z]-[A-Za-z0-9-]{8,}/g,
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
  /\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
];

/**
 * Whether a key name (JSON property, query parameter, header) names a secret:
 * case-insensitive, `-`/`_` agnostic substring match on the words of SPEC §13.
 *
 * @example
 * ```ts
 * import { isSecretKey } from "./redact.ts";
 * isSecretKey("X-Api-Key"); // true
 * isSecretKey("package");   // false
 * ```
 */
export function isSecretKey(key: string): boolean {
  const normalised = key.toLowerCase().replace(/[-_]/g, "");
  return SECRET_KEY_WORDS.some((word) => normalised.includes(word));
}

/**
 * Replaces every token-shaped part of a string (GitHub, AWS, Slack tokens,
 * JWTs, `Bearer …`/`Basic …` credentials, PEM private keys) with `[REDACTED]`.
 *
 * @example
 * ```ts
 * import { redactString } from "./redact.ts";
 * redactString("use Bearer abcdefgh12345"); // "use [REDACTED]"
 * ```
 */
export function redactString(value: string): string {
  return TOKEN_PATTERNS.reduce((text, pattern) => text.replace(pattern, REDACTED), value);
}

/**
 * Returns a deep copy of a JSON-like value with secrets replaced: any non-null
 * value under a secret key becomes `"[REDACTED]"`, and token-shaped parts of
 * strings are replaced wherever they appear. Keys are kept so the shape of the
 * payload stays visible.
 *
 * @example
 * ```ts
 * import { redact } from "./redact.ts";
 * redact({ user: "ann", password: "hunter2" }); // { user: "ann", password: "[REDACTED]" }
 * ```
 */
export function redact<T>(value: T): T {
  return redactValue(value) as T;
}

function redactValue(value: unknown): unknown {
  if (typeof value === "string") return redactString(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = inner !== null && isSecretKey(key) ? REDACTED : redactValue(inner);
    }
    return out;
  }
  return value;
}
