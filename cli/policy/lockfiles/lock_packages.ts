/**
 * The `[[package]]` tables of a TOML lock file (poetry.lock, pdm.lock) with
 * the normalised name, recorded version and line of each; tables without a
 * name are skipped.
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

/** Parses TOML lock text (`file` names it in errors) into its `[[package]]` tables. */
export function lockPackages(source: string, file: string): LockPackage[] {
  const packages = tables(readToml(source, file).package);
  const lines = arrayTableLines(source, "package", packages.length);
  const out: LockPackage[] = [];
  packages.forEach((pkg, i) => {
    const raw = text(pkg.name);
    if (raw === null) return;
    out.push({
      pkg,
      at: {
        name: normalizeName(raw),
        file,
        line: lines?.[i] ?? lineContaining(source, `name = "${raw}"`),
        version: text(pkg.version),
      },
    });
  });
  return out;
}
