/**
 * `Pipfile` (pipenv's manifest): `[packages]`, `[dev-packages]` and any
 * custom category; each value is a version specifier (`"*"`, `">=2"`) or a
 * table (`{version, extras, git, ref, path, file, editable}`).
 *
 * @module
 */

import { declare, type Declared, type ManifestRead } from "./declared.ts";
import { lineMatching, literal } from "./locate.ts";
import { readToml, table, text } from "./values.ts";

const NON_PACKAGE = new Set(["source", "requires", "scripts", "pipenv"]);

function specOf(value: unknown): string {
  if (typeof value === "string") return value.trim() || "*";
  const t = table(value);
  const git = text(t.git);
  if (git) return `git+${git}${text(t.ref) ? `@${text(t.ref)}` : ""}`;
  const path = text(t.path) ?? text(t.file);
  if (path) return /^[a-z+]+:\/\//i.test(path) ? path : `path:${path}`;
  return text(t.version) ?? "*";
}

/** Reads Pipfile text; unparsable TOML is a one-line `bad_input` error naming `file`. */
export function readPipfileManifest(source: string, file: string): ManifestRead {
  const doc = readToml(source, file);
  const declared: Declared[] = [];
  for (const [section, packages] of Object.entries(doc)) {
    if (NON_PACKAGE.has(section)) continue;
    for (const [name, value] of Object.entries(table(packages))) {
      const line = lineMatching(source, new RegExp(`^\\s*"?${literal(name)}"?\\s*=`, "i"));
      declare(declared, name, specOf(value), line);
    }
  }
  return { declared, warnings: [] };
}
