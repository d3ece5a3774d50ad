/**
 * `Pipfile.lock` (pipfile-spec 6): JSON sections `default`, `develop` and any
 * custom package category, each mapping a name to `{version: "==X"}` or to a
 * `git`/`path`/`file` source. The project's own `{"path": "."}` entry is
 * skipped. Direct dependencies come from the companion `Pipfile`.
 *
 * @module
 */

import { normalizeName } from "../../../src/core/names.ts";
import { jsonKeyLine } from "./locate.ts";
import { entry, type LockEntry, type ParsedLock } from "./types.ts";
import { isTable, readJson, text } from "./values.ts";

/** The exact version of a Pipfile.lock `"version": "==X"`, else null. */
export function exactVersion(spec: string | null): string | null {
  const match = spec ? /^\s*===?\s*([^\s,;*]+)\s*$/.exec(spec) : null;
  return match ? match[1] : null;
}

/** Parses Pipfile.lock text; `file` names it in entries and errors. */
export function parsePipfileLock(source: string, file: string): ParsedLock {
  const doc = readJson(source, file);
  const entries: LockEntry[] = [];
  for (const [section, packages] of Object.entries(doc)) {
    if (section.startsWith("_") || !isTable(packages)) continue;
    const sectionLine = jsonKeyLine(source, section);
    for (const [raw, spec] of Object.entries(packages)) {
      if (!isTable(spec)) continue;
      const path = text(spec.path);
      if (path !== null && /^\.\/?$/.test(path)) continue; // the project itself
      const versionSpec = text(spec.version);
      const version = exactVersion(versionSpec);
      const at = {
        name: normalizeName(raw),
        file,
        line: jsonKeyLine(source, raw, sectionLine),
        version,
      };
      const git = text(spec.git);
      const url = text(spec.file);
      if (git) {
        const ref = text(spec.ref);
        entries.push(entry({ ...at, source: `git+${git}${ref ? `@${ref}` : ""}` }));
      } else if (path) {
        entries.push(entry({ ...at, source: `path ${path}`, local: true }));
      } else if (url) {
        entries.push(entry({ ...at, source: url }));
      } else {
        entries.push(entry({
          ...at,
          pinned: version !== null,
          specifier: version === null ? versionSpec : null,
        }));
      }
    }
  }
  return { entries, rootDirect: null };
}
