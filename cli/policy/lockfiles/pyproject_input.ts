/**
 * `pyproject.toml` audited by itself (no lock file beside it): its runtime
 * dependencies (SPEC §11; the hook and pre-commit gate every group, the
 * audit reports what the project installs at run time), read by the same
 * reader (`pyproject_manifest.ts`), with the version `pinnedVersion`
 * chooses; all are direct.
 *
 * @module
 */

import { declaredEntry } from "./declared.ts";
import { readPyprojectManifest } from "./pyproject_manifest.ts";
import type { ParsedLock } from "./types.ts";

/** Parses pyproject.toml text as an audit input. */
export function parsePyprojectInput(source: string, file: string): ParsedLock {
  const entries = readPyprojectManifest(source, file).declared
    .filter((d) => d.group === "runtime")
    .map((d) => declaredEntry(d, file));
  return { entries, rootDirect: null };
}
