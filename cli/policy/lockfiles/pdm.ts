/**
 * `pdm.lock` (PDM's lock file, `[metadata] lock_version` 4.x): every
 * `[[package]]` is an installed distribution. `editable`/`path` packages are
 * local sources, `git`/`url` ones unpinned sources. The lock has no root
 * entry: direct dependencies come from `pyproject.toml`.
 *
 * @module
 */

import { normalizeName } from "../../../src/core/names.ts";
import { arrayTableLines, lineContaining } from "./locate.ts";
import { entry, type LockEntry, type ParsedLock } from "./types.ts";
import { readToml, tables, text } from "./values.ts";

/** Parses pdm.lock text; `file` names it in entries and errors. */
export function parsePdmLock(source: string, file: string): ParsedLock {
  const doc = readToml(source, file);
  const packages = tables(doc.package);
  const lines = arrayTableLines(source, "package", packages.length);
  const entries: LockEntry[] = [];
  packages.forEach((pkg, i) => {
    const raw = text(pkg.name);
    if (raw === null) return;
    const version = text(pkg.version);
    const at = {
      name: normalizeName(raw),
      file,
      line: lines?.[i] ?? lineContaining(source, `name = "${raw}"`),
      version,
    };
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
      entries.push(entry({ ...at, pinned: version !== null }));
    }
  });
  return { entries, rootDirect: null };
}
