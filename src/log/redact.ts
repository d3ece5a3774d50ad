/**
 * The one redaction helper for everything policyd logs or returns: the
 * user-info part of every URL (`https://user:token@host` → `https://***@host`,
 * so `OSV_API_URL`, `PYPI_URL`, `REDIS_URL`, `DATABASE_URL` and git remotes
 * never leak their credentials), secret-looking query parameters, and any
 * further secret values given explicitly (tokens, webhook secrets).
 *
 * @module
 */

const USERINFO = /([a-z][a-z0-9+.-]*:\/\/)[^/\s@?#]+@/gi;
const SECRET_PARAMS =
  /([?&](?:access_token|token|api_key|apikey|key|password|secret|client_secret|sig)=)[^&#\s"']+/gi;

/**
 * Removes credentials from text meant for logs or responses.
 *
 * @example
 * ```ts
 * redact("GET http://user:pass@osv.internal/v1/query failed"); // "GET http://***@osv.internal/v1/query failed"
 * redact("token abc123 in output", ["abc123"]); // "token [REDACTED] in output"
 * ```
 */
export function redact(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  // A URL's user-info needs "://" and a secret parameter needs "=": most log
  // strings (paths, ids, messages) have neither and skip both expressions.
  let out = text.includes("://") || text.includes("=")
    ? text.replace(USERINFO, "$1***@").replace(SECRET_PARAMS, "$1***")
    : text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join("[REDACTED]");
  }
  return out;
}

/**
 * Redacts every string inside a JSON-like value (log fields, problem documents).
 *
 * @example
 * ```ts
 * redactValue({ url: "redis://:pw@cache:6379" }); // { url: "redis://***@cache:6379" }
 * ```
 */
export function redactValue(value: unknown, depth = 0): unknown {
  // Most log lines hold nothing to redact: then the value itself, not a copy.
  return depth === 0 && nothingToRedact(value, 0) ? value : redactedCopy(value, depth);
}

/**
 * Whether `value` is made of plain objects, arrays and primitives only, with
 * no string that `redact` could change: copying it would change nothing.
 */
function nothingToRedact(value: unknown, depth: number): boolean {
  if (typeof value === "string") return !value.includes("://") && !value.includes("=");
  if (value === null || typeof value !== "object") return true;
  if (depth > 8) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!nothingToRedact(item, depth + 1)) return false;
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key in value) {
    if (!nothingToRedact((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function redactedCopy(value: unknown, depth: number): unknown {
  if (typeof value === "string") return redact(value);
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redactedCopy(v, depth + 1));
  if (value instanceof Error) return redact(String(value));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactedCopy(v, depth + 1);
  return out;
}
