/**
 * Every requirement a `pyproject.toml` declares: `[project].dependencies`,
 * Poetry's `[tool.poetry.dependencies]` (SPEC §11 runtime dependencies,
 * first), then `[project.optional-dependencies]`, PEP 735
 * `[dependency-groups]` (uv installs `dev` by default), Poetry's
 * `dev-dependencies` and groups, uv's legacy `dev-dependencies` and
 * `[build-system].requires` — everything an installer may fetch (issue 27).
 *
 * @module
 */

import { requirementName, runtimeDependenciesOf } from "../pyproject.ts";
import { declare, type Declared, type ManifestRead } from "./declared.ts";
import { lineContaining, lineMatching, literal } from "./locate.ts";
import { readToml, type Table, table } from "./values.ts";

function poetrySpec(value: unknown): string {
  if (typeof value === "string") return value;
  const t = table(value);
  if (typeof t.version === "string") return t.version;
  if (typeof t.git === "string") return `git+${t.git}`;
  if (typeof t.url === "string") return t.url;
  if (typeof t.path === "string") return `path:${t.path}`;
  return "*";
}

/** The line declaring `spec` (its quoted text, else a `name =` key), else 1. */
function lineOf(source: string, name: string, spec: string): number {
  return lineContaining(
    source,
    JSON.stringify(spec),
    lineMatching(source, new RegExp(`^\\s*"?${literal(name)}"?\\s*=`, "i")),
  );
}

function addList(into: Declared[], source: string, list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const item of list) {
    if (typeof item !== "string") continue; // PEP 735 {include-group} adds nothing new
    const name = requirementName(item);
    if (name) declare(into, name, item, lineOf(source, name, item));
  }
}

function addPoetry(into: Declared[], source: string, deps: unknown): void {
  for (const [name, value] of Object.entries(table(deps))) {
    if (name.toLowerCase() === "python") continue;
    const spec = poetrySpec(value);
    declare(into, name, spec, lineOf(source, name, spec));
  }
}

/** Every requirement of a parsed pyproject document (see the module comment). */
export function pyprojectDeclared(doc: Table, source: string): Declared[] {
  const out: Declared[] = [];
  for (const [name, spec] of runtimeDependenciesOf(doc)) {
    declare(out, name, spec, lineOf(source, requirementName(spec) ?? name, spec));
  }
  for (const d of out) d.group = "runtime";
  const project = table(doc.project);
  for (const list of Object.values(table(project["optional-dependencies"]))) {
    addList(out, source, list);
  }
  for (const list of Object.values(table(doc["dependency-groups"]))) addList(out, source, list);
  const tool = table(doc.tool);
  const poetry = table(tool.poetry);
  addPoetry(out, source, poetry["dev-dependencies"]);
  for (const group of Object.values(table(poetry.group))) {
    addPoetry(out, source, table(group).dependencies);
  }
  addList(out, source, table(tool.uv)["dev-dependencies"]);
  addList(out, source, table(doc["build-system"]).requires);
  for (const d of out) d.group ??= "other";
  return out;
}

/** Reads pyproject.toml text; unparsable TOML is a one-line `bad_input` error naming `file`. */
export function readPyprojectManifest(source: string, file: string): ManifestRead {
  return { declared: pyprojectDeclared(readToml(source, file), source), warnings: [] };
}
