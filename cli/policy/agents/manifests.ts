/**
 * Dependency manifests the agent gate and the pre-commit check watch: any
 * `pyproject.toml`, `requirements*.txt` / `requirements/*.txt` and
 * constraints files. Pure functions over paths and text.
 *
 * @module
 */

import { parsePipRequirementsFile, parsePipRequirementsLineLoosely } from "pip-requirements-js";
import { basename, dirname, join } from "node:path";
import { normalizeName } from "../../../src/core/names.ts";
import { requirementName, runtimeDependencies } from "../pyproject.ts";
import type { Dependencies } from "../pyproject.ts";

/** The kinds of manifest we read. */
export type ManifestKind = "pyproject" | "requirements";

const REQUIREMENTS_NAME = /(requirements|constraints)[^/]*\.(txt|in)$/i;

/** The kind of manifest at `path`, or null for any other file. */
export function manifestKind(path: string): ManifestKind | null {
  const name = basename(path);
  if (name === "pyproject.toml") return "pyproject";
  if (REQUIREMENTS_NAME.test(name)) return "requirements";
  if (/\.(txt|in)$/i.test(name) && basename(dirname(path)) === "requirements") {
    return "requirements";
  }
  return null;
}

/** Packages and referenced files (`-r`, `-c`) of a requirements file. */
export interface RequirementsEntries {
  packages: Dependencies;
  files: string[];
}

function addOnce(deps: Dependencies, name: string, spec: string): void {
  const key = normalizeName(name);
  if (!deps.has(key)) deps.set(key, spec);
}

/**
 * Reads a requirements/constraints file with pip-requirements-js; a file that
 * does not parse as a whole (mid-edit) is read line by line, loosely.
 */
export function requirementsFileEntries(text: string): RequirementsEntries {
  const packages: Dependencies = new Map();
  const files: string[] = [];
  try {
    for (const req of parsePipRequirementsFile(text)) {
      if (req.type === "ProjectName" || req.type === "ProjectURL") {
        const spec = req.type === "ProjectName"
          ? req.name + (req.versionSpec ?? []).map((v) => `${v.operator}${v.version}`).join(",")
          : req.name;
        addOnce(packages, req.name, spec);
      } else files.push(req.path);
    }
    return { packages, files };
  } catch {
    // fall back to a line-by-line reading below
  }
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    if (line === "") continue;
    const file = /^(-r|--requirement|-c|--constraint)[\s=]+(\S+)/.exec(line);
    if (file) {
      files.push(file[2]);
      continue;
    }
    if (line.startsWith("-")) continue;
    try {
      const req = parsePipRequirementsLineLoosely(line);
      if (req) addOnce(packages, req.name, line);
    } catch {
      const name = requirementName(line);
      if (name) addOnce(packages, name, line);
    }
  }
  return { packages, files };
}

/**
 * Dependencies of a manifest's text: the runtime dependencies of a
 * pyproject.toml (SPEC §11), every requirement of a requirements or
 * constraints file. Throws a one-line error on unparsable TOML.
 */
export function manifestDependencies(kind: ManifestKind, text: string): Dependencies {
  return kind === "pyproject" ? runtimeDependencies(text) : requirementsFileEntries(text).packages;
}

/**
 * The project root of an edited file: the nearest ancestor directory holding
 * `.policy.toml` or `pyproject.toml` (the file's own directory first), else
 * the file's directory.
 */
export function projectRootOf(file: string, exists: (path: string) => boolean): string {
  const start = dirname(file);
  if (basename(file) === "pyproject.toml") return start;
  let dir = start;
  for (;;) {
    if (exists(join(dir, ".policy.toml")) || exists(join(dir, "pyproject.toml"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}
