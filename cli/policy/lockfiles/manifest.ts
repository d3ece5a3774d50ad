/**
 * Direct dependencies from a lock file's companion manifest: `pyproject.toml`
 * (`[project]` dependencies and optional dependencies, PEP 735
 * `[dependency-groups]`, Poetry's dependencies, dev-dependencies and groups,
 * uv's legacy `dev-dependencies`) or a `Pipfile` (every package category).
 *
 * @module
 */

import { normalizeName } from "../../../src/core/names.ts";
import { requirementName } from "../pyproject.ts";
import { readToml, type Table, table, text } from "./values.ts";

function addRequirements(names: Set<string>, list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const item of list) {
    if (typeof item !== "string") continue; // PEP 735 {include-group} adds nothing new
    const name = requirementName(item);
    if (name) names.add(normalizeName(name));
  }
}

function addKeys(names: Set<string>, deps: unknown): void {
  for (const name of Object.keys(table(deps))) {
    const key = normalizeName(name);
    if (key !== "python") names.add(key);
  }
}

/** Names a parsed pyproject document depends on directly, in any group. */
export function pyprojectDirectNames(doc: Table): Set<string> {
  const names = new Set<string>();
  const project = table(doc.project);
  addRequirements(names, project.dependencies);
  for (const list of Object.values(table(project["optional-dependencies"]))) {
    addRequirements(names, list);
  }
  for (const list of Object.values(table(doc["dependency-groups"]))) addRequirements(names, list);
  const tool = table(doc.tool);
  const poetry = table(tool.poetry);
  addKeys(names, poetry.dependencies);
  addKeys(names, poetry["dev-dependencies"]);
  for (const group of Object.values(table(poetry.group))) addKeys(names, table(group).dependencies);
  addRequirements(names, table(tool.uv)["dev-dependencies"]);
  return names;
}

const PIPFILE_NON_PACKAGE = new Set(["source", "requires", "scripts", "pipenv"]);

/** Names a parsed Pipfile lists in `[packages]`, `[dev-packages]` or a custom category. */
export function pipfileDirectNames(doc: Table): Set<string> {
  const names = new Set<string>();
  for (const [section, packages] of Object.entries(doc)) {
    if (PIPFILE_NON_PACKAGE.has(section)) continue;
    addKeys(names, packages);
  }
  return names;
}

/** Direct names of manifest text by its file name (`pyproject.toml` or `Pipfile`). */
export function manifestDirectNames(
  kind: "pyproject.toml" | "Pipfile",
  source: string,
  file: string,
) {
  const doc = readToml(source, file);
  return kind === "Pipfile" ? pipfileDirectNames(doc) : pyprojectDirectNames(doc);
}

/** The `[project].name` / `[tool.poetry].name` of a pyproject document, normalised, or null. */
export function pyprojectName(doc: Table): string | null {
  const name = text(table(doc.project).name) ?? text(table(table(doc.tool).poetry).name);
  return name ? normalizeName(name) : null;
}
