/**
 * `pdm.lock` (PDM's lock file, `[metadata] lock_version` 4.x): every
 * `[[package]]` is an installed distribution. `editable`/`path` packages are
 * local sources, `git`/`url` ones unpinned sources. The lock has no root
 * entry: direct dependencies come from `pyproject.toml`.
 *
 * @module
 */

import { lockPackages } from "./lock_packages.ts";
import { entry, type LockEntry, type ParsedLock } from "./types.ts";
import { text } from "./values.ts";

/** Parses pdm.lock text; `file` names it in entries and errors. */
export function parsePdmLock(source: string, file: string): ParsedLock {
  const entries: LockEntry[] = [];
  for (const { pkg, at } of lockPackages(source, file)) {
    const git = text(pkg.git);
    const url = text(pkg.url);
    const path = text(pkg.path);
    if (git) {
      const ref = text(pkg.revision) ?? text(pkg.ref);
      entries.push(entry({ ...at, source: `git+${git}${ref ? `@${ref}` : ""}` }));
    } else if (url) {
      entries.push(entry({ ...at, source: url }));
    } else if (path) {
      entries.push(entry({ ...at, source: `path ${path}`, local: true }));
    } else {
      entries.push(entry({ ...at, pinned: at.version !== null }));
    }
  }
  return { entries, rootDirect: null };
}
