/**
 * `pyproject.toml` helpers of the client: runtime dependencies, their diff,
 * the version to evaluate for a specifier, edit simulation, project name.
 *
 * Pure functions over strings; callers read the files.
 *
 * @module
 */

import { isTable, parsePyproject, type Table } from "./pyproject_toml.ts";
import { parsePipRequirementsLine, parsePipRequirementsLineLoosely } from "pip-requirements-js";
import { valid as validVersion } from "@renovatebot/pep440";
import { normalizeName } from "../../src/core/names.ts";

import type { Dependencies } from "./dependency_diff.ts";

export type { Dependencies } from "./dependency_diff.ts";
export { diffDependencies } from "./dependency_diff.ts";

export { parsePyproject, projectName, projectNameOf } from "./pyproject_toml.ts";

/** The PEP 508 name at the start of a requirement line, or null. */
export function requirementName(line: string): string | null {
  for (const parse of [parsePipRequirementsLine, parsePipRequirementsLineLoosely]) {
    try {
      const req = parse(line);
      if (req && (req.type === "ProjectName" || req.type === "ProjectURL")) return req.name;
    } catch {
      // fall through to the next, more lenient reader
    }
  }
  const match = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(line);
  return match ? match[1] : null;
}

function poetrySpecifier(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(poetrySpecifier).join(" || ");
  if (isTable(value)) {
    if (typeof value.version === "string") return value.version;
    if (typeof value.git === "string") return `git+${value.git}`;
    if (typeof value.url === "string") return value.url;
    if (typeof value.path === "string") return `path:${value.path}`;
  }
  return "*";
}

/**
 * Runtime dependencies of a parsed pyproject document: `[project].dependencies`
 * plus Poetry's `[tool.poetry.dependencies]` without `python`. A name listed
 * twice counts once (first occurrence wins) and `[project]` wins over Poetry
 * (SPEC §15.15, §15.30). Optional dependency groups are not runtime deps.
 */
export function runtimeDependenciesOf(doc: Table): Dependencies {
  const deps: Dependencies = new Map();
  const project = isTable(doc.project) ? doc.project : {};
  const list = Array.isArray(project.dependencies) ? project.dependencies : [];
  for (const entry of list) {
    if (typeof entry !== "string") continue;
    const name = requirementName(entry);
    if (name === null) continue;
    const key = normalizeName(name);
    if (!deps.has(key)) deps.set(key, entry.trim());
  }
  const tool = isTable(doc.tool) ? doc.tool : {};
  const poetry = isTable(tool.poetry) ? tool.poetry : {};
  const poetryDeps = isTable(poetry.dependencies) ? poetry.dependencies : {};
  for (const [name, value] of Object.entries(poetryDeps)) {
    const key = normalizeName(name);
    if (key === "python" || deps.has(key)) continue;
    deps.set(key, poetrySpecifier(value));
  }
  return deps;
}

/** Runtime dependencies of pyproject text (see {@link runtimeDependenciesOf}). */
export function runtimeDependencies(text: string): Dependencies {
  return runtimeDependenciesOf(parsePyproject(text));
}

const POETRY_LIKE = /^\s*(?:[\^~=<>!]|\d|\*|$)/;

function concrete(version: string): string | null {
  const v = version.trim();
  if (v === "" || v.includes("*")) return null;
  return validVersion(v) ? v : null;
}

function fromClauses(clauses: Array<{ operator: string; version: string }>): string | null {
  for (const wanted of [["==", "==="], [">="], ["~="], ["^", "~"]]) {
    for (const clause of clauses) {
      if (wanted.includes(clause.operator)) {
        const v = concrete(clause.version);
        if (v !== null) return v;
      }
    }
  }
  return null;
}

function poetryClauses(spec: string): Array<{ operator: string; version: string }> {
  // Poetry: "^1.2", "~1.2", ">=1,<2", "1.2.3" (exact), "1.2 || 2.0" (take the first branch).
  const firstBranch = spec.split("||")[0];
  return firstBranch.split(",").map((part) => {
    const m = /^\s*(===|==|>=|<=|~=|!=|\^|~|>|<|=)?\s*(.*?)\s*$/.exec(part)!;
    const op = m[1] ?? "==";
    return { operator: op === "=" ? "==" : op, version: m[2] };
  });
}

/**
 * The concrete version to evaluate for a specifier, or null: `==X`, `===X`,
 * `>=X`, `~=X` give X (the lower bound); Poetry `^X`/`~X` are lower bounds too
 * and a bare Poetry version is exact. Accepts a PEP 508 line (`name>=1.0`) or
 * a bare constraint (`>=1.0`, `^2.1`). Wildcards and non-PEP 440 versions give null.
 */
export function pinnedVersion(specifier: string): string | null {
  if (POETRY_LIKE.test(specifier)) return fromClauses(poetryClauses(specifier));
  for (const parse of [parsePipRequirementsLine, parsePipRequirementsLineLoosely]) {
    try {
      const req = parse(specifier);
      if (req?.type === "ProjectURL") return null;
      if (req?.type === "ProjectName") {
        const clauses = (req.versionSpec ?? []).filter((c) =>
          typeof c.version === "string"
        ) as Array<{ operator: string; version: string }>;
        return fromClauses(clauses);
      }
    } catch {
      // try the lenient reader
    }
  }
  return null;
}

/** One edit of Claude Code's Edit/MultiEdit tools. */
export interface TextEdit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

function applyEdit(content: string, edit: TextEdit): string | null {
  if (edit.old_string === "") return content === "" ? edit.new_string : null;
  if (!content.includes(edit.old_string)) return null;
  return edit.replace_all
    ? content.split(edit.old_string).join(edit.new_string)
    : content.replace(edit.old_string, () => edit.new_string);
}

/**
 * The file content after a Write, Edit or MultiEdit tool call, or null when
 * the call would fail (old_string not found) or the tool is not an editor.
 * `current` is null when the file does not exist yet.
 */
export function simulateEdit(
  current: string | null,
  toolName: string,
  toolInput: Record<string, unknown>,
): string | null {
  if (toolName === "Write") {
    return typeof toolInput.content === "string" ? toolInput.content : null;
  }
  const base = current ?? "";
  if (toolName === "Edit") {
    if (typeof toolInput.old_string !== "string" || typeof toolInput.new_string !== "string") {
      return null;
    }
    return applyEdit(base, toolInput as unknown as TextEdit);
  }
  if (toolName === "MultiEdit") {
    if (!Array.isArray(toolInput.edits)) return null;
    let text: string | null = base;
    for (const edit of toolInput.edits as TextEdit[]) {
      if (text === null || typeof edit?.old_string !== "string") return null;
      if (typeof edit.new_string !== "string") return null;
      text = applyEdit(text, edit);
    }
    return text;
  }
  return null;
}
