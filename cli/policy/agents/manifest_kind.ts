/**
 * Which files are dependency manifests, and the project an edited file
 * belongs to: path tests only, apart from `manifests.ts` so that a hook event
 * or a commit without a manifest never loads the requirement parser
 * (docs/performance.md, "Client start-up"). Paths go through `os_path.ts`,
 * not `node:path`, for the same reason.
 *
 * @module
 */

import { baseName, joinPath, parentDir } from "../os_path.ts";

/** The kinds of manifest we read (`script`: a `.py` file's PEP 723 block). */
export type ManifestKind =
  | "pyproject"
  | "requirements"
  | "setup.py"
  | "setup.cfg"
  | "Pipfile"
  | "tox.ini"
  | "environment.yml"
  | "script";

const REQUIREMENTS_NAME = /(requirements|constraints)[^/]*\.(txt|in)$/i;

/** The kind of manifest at `path`, or null for any other file. */
export function manifestKind(path: string): ManifestKind | null {
  const name = baseName(path);
  if (name === "pyproject.toml") return "pyproject";
  if (REQUIREMENTS_NAME.test(name)) return "requirements";
  if (name === "setup.py" || name === "setup.cfg" || name === "Pipfile" || name === "tox.ini") {
    return name;
  }
  if (/^environment\.ya?ml$/.test(name)) return "environment.yml";
  if (/\.py$/.test(name)) return "script";
  if (/\.(txt|in)$/i.test(name) && baseName(parentDir(path)) === "requirements") {
    return "requirements";
  }
  return null;
}

/**
 * The project root of an edited file: the nearest ancestor directory holding
 * `.policy.toml` or `pyproject.toml` (the file's own directory first), else
 * the file's directory.
 */
export function projectRootOf(file: string, exists: (path: string) => boolean): string {
  const start = parentDir(file);
  if (baseName(file) === "pyproject.toml") return start;
  let dir = start;
  for (;;) {
    if (exists(joinPath(dir, ".policy.toml")) || exists(joinPath(dir, "pyproject.toml"))) {
      return dir;
    }
    const parent = parentDir(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}
