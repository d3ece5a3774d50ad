/**
 * `pylock.toml` / `pylock.*.toml` (PEP 751, lock-version 1.x), from
 * `uv export` (with `index`) or `uv pip compile` (without): every
 * `[[packages]]` is a distribution. `vcs` and `archive` URLs are unpinned
 * sources, `directory` and archive paths local ones; the project's own
 * `directory = { path = "." }` entry is skipped and its `dependencies`
 * (when listed) are the direct ones.
 *
 * @module
 */

import { normalizeName } from "../../../src/core/names.ts";
import { lockPackages } from "./lock_packages.ts";
import { entry, type LockEntry, type ParsedLock } from "./types.ts";
import { table, tables, text } from "./values.ts";

function isProjectPath(path: string | null): boolean {
  return path !== null && /^\.\/?$/.test(path);
}

/** Parses pylock.toml text; `file` names it in entries and errors. */
export function parsePylock(source: string, file: string): ParsedLock {
  const entries: LockEntry[] = [];
  let rootDirect: Set<string> | null = null;
  const options = { key: "packages", needle: (raw: string) => `"${raw}"` };
  for (const { pkg, at } of lockPackages(source, file, options)) {
    const directory = table(pkg.directory);
    if (isProjectPath(text(directory.path))) {
      const deps = tables(pkg.dependencies).map((d) => text(d.name)).filter((n) => n !== null);
      if (deps.length) rootDirect = new Set(deps.map((n) => normalizeName(n!)));
      continue;
    }
    const version = at.version;
    const vcs = table(pkg.vcs);
    const archive = table(pkg.archive);
    if (Object.keys(vcs).length) {
      const url = text(vcs.url) ?? text(vcs.path) ?? "?";
      const commit = text(vcs["commit-id"]);
      const scheme = `${text(vcs.type) ?? "vcs"}+`;
      const isLocal = text(vcs.url) === null;
      entries.push(entry({
        ...at,
        source: isLocal ? `path ${url}` : `${scheme}${url}${commit ? `@${commit}` : ""}`,
        local: isLocal,
      }));
    } else if (Object.keys(directory).length) {
      entries.push(entry({ ...at, source: `path ${text(directory.path) ?? "?"}`, local: true }));
    } else if (Object.keys(archive).length) {
      const url = text(archive.url);
      entries.push(
        url
          ? entry({ ...at, source: url })
          : entry({ ...at, source: `path ${text(archive.path) ?? "?"}`, local: true }),
      );
    } else {
      entries.push(entry({ ...at, pinned: version !== null }));
    }
  }
  return { entries, rootDirect };
}
