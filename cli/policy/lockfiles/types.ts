/**
 * What every lock-file parser returns: one {@link LockEntry} per installed
 * package, located at the file and line that pins it.
 *
 * @module
 */

/** The formats `policy audit` reads. */
export const LOCK_FORMATS = [
  "uv.lock",
  "poetry.lock",
  "pylock.toml",
  "Pipfile.lock",
  "requirements",
  "pyproject.toml",
  "pdm.lock",
  "setup.py",
  "setup.cfg",
  "Pipfile",
  "tox.ini",
  "environment.yml",
  "script",
] as const;

/** One of {@link LOCK_FORMATS}. */
export type LockFormat = typeof LOCK_FORMATS[number];

/** One package a file installs. */
export interface LockEntry {
  /** PEP 503-normalised name. */
  name: string;
  /** The exact version the file records, null when it records none. */
  version: string | null;
  /** True when the version is exact and the package comes from an index. */
  pinned: boolean;
  /** The requirement's version specifier when it is not an exact pin (`>=1.2`). */
  specifier: string | null;
  /** Where the package comes from when it is not an index: `git+https://…`, a URL, `path ./x`. */
  source: string | null;
  /** A local path or directory: not a published package, so it is not evaluated. */
  local: boolean;
  /** The file that pins it (as the caller named it). */
  file: string;
  /** 1-based line of that file. */
  line: number;
  /** Direct dependency, when the file itself says (pip-compile annotations). */
  direct?: boolean;
  /** The requirement as written, when the file has one (requirements files). */
  requirement?: string;
}

/** Result of parsing one file. */
export interface ParsedLock {
  entries: LockEntry[];
  /**
   * Direct dependencies named by the file's own root entry (uv.lock's
   * editable/virtual project, pip-compile `# via -r` annotations), or null
   * when the file does not say.
   */
  rootDirect: Set<string> | null;
  /** `FILE line N: …` for each part the reader skipped (the rest was read). */
  warnings?: string[];
  /** Files a requirements file includes (`-r`) or constrains with (`-c`), as written. */
  included?: string[];
}

/** An entry with only the members a parser must set. */
export function entry(
  fields: Pick<LockEntry, "name" | "file" | "line"> & Partial<LockEntry>,
): LockEntry {
  return {
    version: null,
    pinned: false,
    specifier: null,
    source: null,
    local: false,
    ...fields,
  };
}
