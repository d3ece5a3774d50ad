/**
 * Safe YAML parsing for registry documents: bounded size, bounded alias
 * expansion (billion-laughs safe), syntax errors as path-qualified values.
 *
 * @module
 */
import { isNode, LineCounter, parseDocument, stringify } from "yaml";
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
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.map((e) => {
        const at = e.linePos?.[0];
        return {
          path: at ? `line ${at.line}, column ${at.col}` : "(root)",
          message: `YAML syntax error: ${
            e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "")
          }`,
          ...(at ? { line: at.line, column: at.col } : {}),
        };
      }),
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

/** Splits a path such as `packages[3].status` into `["packages", 3, "status"]`. */
function pathParts(path: string): Array<string | number> {
  const parts: Array<string | number> = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    parts.push(match[2] !== undefined ? Number(match[2]) : match[1]);
  }
  return parts;
}

/**
 * Adds the line and column (1-based) of each error's path in the YAML
 * `text`: the node the path names, else its nearest existing parent (a
 * missing key is reported where its mapping starts).
 *
 * @example
 * ```ts
 * import { locateErrors } from "./yaml.ts";
 * locateErrors("packages:\n  - name: a\n    status: nope\n", [
 *   { path: "packages[0].status", message: "invalid" },
 * ]); // [{ path: "packages[0].status", message: "invalid", line: 3, column: 13 }]
 * ```
 */
export function locateErrors(text: string, errors: ValidationError[]): ValidationError[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  if (doc.errors.length > 0) return errors;
  return errors.map((error) => {
    if (error.line !== undefined) return error;
    const parts = pathParts(error.path === "(root)" ? "" : error.path);
    for (let n = parts.length; n >= 0; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(parts.slice(0, n), true);
      if (isNode(node) && node.range) {
        const at = lines.linePos(node.range[0]);
        return { ...error, line: at.line, column: at.col };
      }
    }
    return error;
  });
}

/** Serialises plain data as YAML. */
export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0 });
}
