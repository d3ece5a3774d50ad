/**
 * `poetry.lock`, both generations (2020's `category` + `[metadata.files]`
 * and lock-version 2.x with per-package `files`): every `[[package]]` is an
 * installed distribution. A `[package.source]` of type `git`/`url` is an
 * unpinned source, `directory`/`file` a local one; `legacy` (a private index)
 * still pins. The lock has no root entry: direct dependencies come from
 * `pyproject.toml`.
 *
 * @module
 */

import { lockPackages } from "./lock_packages.ts";
import { entry, type LockEntry, type ParsedLock } from "./types.ts";
import { table, text } from "./values.ts";

/** Parses poetry.lock text; `file` names it in entries and errors. */
export function parsePoetryLock(source: string, file: string): ParsedLock {
  const entries: LockEntry[] = [];
  for (const { pkg, at } of lockPackages(source, file)) {
    const src = table(pkg.source);
    const type = text(src.type);
    const url = text(src.url);
    if (type === "git") {
      const ref = text(src.resolved_reference) ?? text(src.reference);
      entries.push(entry({ ...at, source: `git+${url}${ref ? `@${ref}` : ""}` }));
    } else if (type === "url") {
      entries.push(entry({ ...at, source: url ?? "url" }));
    } else if (type === "directory" || type === "file") {
      entries.push(entry({ ...at, source: `path ${url ?? "?"}`, local: true }));
    } else {
      entries.push(entry({ ...at, pinned: at.version !== null }));
    }
  }
  return { entries, rootDirect: null };
}
