/**
 * `pyproject.toml` audited by itself (no lock file beside it): every
 * requirement it declares (`pyproject_manifest.ts`: runtime dependencies,
 * optional dependencies, dependency groups, Poetry groups, build
 * requirements) with the version `pinnedVersion` chooses; all are direct.
 *
 * @module
 */

import { declaredEntry } from "./declared.ts";
import { readPyprojectManifest } from "./pyproject_manifest.ts";
import type { ParsedLock } from "./types.ts";

/** Parses pyproject.toml text as an audit input. */
export function parsePyprojectInput(source: string, file: string): ParsedLock {
  const entries = readPyprojectManifest(source, file).declared.map((d) => declaredEntry(d, file));
  return { entries, rootDirect: null };
}
