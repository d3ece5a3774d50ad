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

import { normalizeName } from "../../../src/core/names.ts";
import { arrayTableLines, lineContaining } from "./locate.ts";
import { entry, type LockEntry, type ParsedLock } from "./types.ts";
import { readToml, table, tables, text } from "./values.ts";

/** Parses poetry.lock text; `file` names it in entries and errors. */
export function parsePoetryLock(source: string, file: string): ParsedLock {
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
      entries.push(entry({ ...at, pinned: version !== null }));
    }
  });
  return { entries, rootDirect: null };
}
