/**
 * `uv.lock` (uv's lock file, `version = 1`, with or without `revision`):
 * every `[[package]]` is an installed distribution; the project itself (and
 * workspace members) carry an `editable`/`virtual` source and name the
 * direct dependencies.
 *
 * @module
 */

import { normalizeName } from "../../../src/core/names.ts";
import { lockPackages } from "./lock_packages.ts";
import { entry, type LockEntry, type ParsedLock } from "./types.ts";
import { readToml, type Table, table, tables, text } from "./values.ts";

function dependencyNames(pkg: Table): string[] {
  const names: string[] = [];
  const add = (list: unknown) => {
    for (const dep of tables(list)) {
      const name = text(dep.name);
      if (name) names.push(normalizeName(name));
    }
  };
  add(pkg.dependencies);
  for (const group of ["optional-dependencies", "dev-dependencies"]) {
    for (const list of Object.values(table(pkg[group]))) add(list);
  }
  return names;
}

function isOwnProject(source: Table, name: string, members: Set<string>): boolean {
  const local = text(source.editable) ?? text(source.virtual);
  if (local === null) return false;
  return local === "." || members.has(name);
}

/** Parses uv.lock text; `file` names it in entries and errors. */
export function parseUvLock(source: string, file: string): ParsedLock {
  const doc = readToml(source, file);
  const members = new Set(
    (Array.isArray(table(doc.manifest).members) ? table(doc.manifest).members as unknown[] : [])
      .filter((m): m is string => typeof m === "string").map(normalizeName),
  );
  const entries: LockEntry[] = [];
  let rootDirect: Set<string> | null = null;
  for (const { pkg, at } of lockPackages(source, file, { doc })) {
    const src = table(pkg.source);
    if (isOwnProject(src, at.name, members)) {
      rootDirect ??= new Set();
      for (const dep of dependencyNames(pkg)) rootDirect.add(dep);
      continue;
    }
    const version = at.version;
    if (text(src.registry)) entries.push(entry({ ...at, pinned: version !== null }));
    else if (text(src.git)) entries.push(entry({ ...at, source: `git+${text(src.git)}` }));
    else if (text(src.url)) entries.push(entry({ ...at, source: text(src.url) }));
    else {
      const path = text(src.path) ?? text(src.directory) ?? text(src.editable) ??
        text(src.virtual);
      if (path !== null) entries.push(entry({ ...at, source: `path ${path}`, local: true }));
      else entries.push(entry({ ...at, pinned: version !== null }));
    }
  }
  return { entries, rootDirect };
}
