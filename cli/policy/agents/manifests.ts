/**
 * Dependency manifests the agent gate and the pre-commit check watch: any
 * `pyproject.toml`, `requirements*.txt` / `requirements/*.txt` and
 * constraints files. Pure functions over paths and text.
 *
 * @module
 */

import { parsePipRequirementsFile, parsePipRequirementsLineLoosely } from "pip-requirements-js";
import { normalizeName } from "../../../src/core/names.ts";
import { requirementName, runtimeDependencies } from "../pyproject.ts";
import type { Dependencies } from "../pyproject.ts";
import type { ManifestKind } from "./manifest_kind.ts";

export { manifestKind, projectRootOf } from "./manifest_kind.ts";
export type { ManifestKind } from "./manifest_kind.ts";

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
