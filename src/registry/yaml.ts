/**
 * Safe YAML parsing for registry documents: bounded size, bounded alias
 * expansion (billion-laughs safe), syntax errors as path-qualified values.
 *
 * @module
 */
import { parseDocument, stringify } from "yaml";
import type { ValidationError } from "./schema.ts";

/** Largest registry document accepted, in bytes. */
export const MAX_YAML_BYTES = 1024 * 1024;

/** Most alias nodes a document may expand. */
export const MAX_YAML_ALIASES = 100;

/** Result of parsing: the plain JS value or errors. */
export type ParsedYaml = { ok: true; value: unknown } | { ok: false; errors: ValidationError[] };

/**
 * Parses YAML text into plain data with limits.
 *
 * @example
 * ```ts
 * parseYaml("packages: []"); // { ok: true, value: { packages: [] } }
 * ```
 */
export function parseYaml(text: string): ParsedYaml {
  if (new TextEncoder().encode(text).length > MAX_YAML_BYTES) {
    return {
      ok: false,
      errors: [{ path: "(root)", message: `document is larger than ${MAX_YAML_BYTES} bytes` }],
    };
  }
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.map((e) => ({
        path: e.linePos?.[0] ? `line ${e.linePos[0].line}` : "(root)",
        message: `YAML syntax error: ${e.message.split("\n")[0]}`,
      })),
    };
  }
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) };
  } catch (error) {
    return {
      ok: false,
      errors: [{ path: "(root)", message: `YAML rejected: ${(error as Error).message}` }],
    };
  }
}

/** Serialises plain data as YAML. */
export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0 });
}
