/**
 * The `[[package]]` tables of a TOML lock file (poetry.lock, pdm.lock,
 * uv.lock; `[[packages]]` in pylock.toml) with the normalised name, recorded
 * version and line of each; tables without a name are skipped.
 *
 * @module
 */

import { normalizeName } from "../../../src/core/names.ts";
import { arrayTableLines, lineContaining } from "./locate.ts";
import { readToml, type Table, tables, text } from "./values.ts";

/** One package table and where it is. */
export interface LockPackage {
  pkg: Table;
  at: { name: string; file: string; line: number; version: string | null };
}

/** Where a lock file keeps its package tables, for {@link lockPackages}. */
export interface LockPackagesOptions {
  /** The array of tables: `package` (the default) or `packages` (pylock.toml). */
  key?: string;
  /** The parsed document, when the caller has read it already. */
  doc?: Table;
  /** The text that locates a table when its header cannot be counted; `name = "<raw>"` by default. */
  needle?: (raw: string) => string;
}

/** Parses TOML lock text (`file` names it in errors) into its package tables. */
export function lockPackages(
  source: string,
  file: string,
  options: LockPackagesOptions = {},
): LockPackage[] {
  const { key = "package", needle = (raw: string) => `name = "${raw}"` } = options;
  const packages = tables((options.doc ?? readToml(source, file))[key]);
  const lines = arrayTableLines(source, key, packages.length);
  const out: LockPackage[] = [];
  packages.forEach((pkg, i) => {
    const raw = text(pkg.name);
    if (raw === null) return;
    out.push({
      pkg,
      at: {
        name: normalizeName(raw),
        file,
        line: lines?.[i] ?? lineContaining(source, needle(raw)),
        version: text(pkg.version),
      },
    });
  });
  return out;
}
