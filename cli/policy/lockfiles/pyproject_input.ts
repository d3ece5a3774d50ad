/**
 * `pyproject.toml` audited by itself (no lock file beside it): its runtime
 * dependencies (SPEC §11) with the version `pinnedVersion` chooses; all are direct.
 *
 * @module
 */

import { pinnedVersion, requirementName, runtimeDependenciesOf } from "../pyproject.ts";
import { lineContaining, lineMatching, literal } from "./locate.ts";
import { entry, type LockEntry, type ParsedLock } from "./types.ts";
import { readToml } from "./values.ts";

/** Whether a specifier pins one exact version (`name==1.2`, Poetry's bare `1.2`). */
function isExact(spec: string): boolean {
  const requirement = spec.replace(/;.*$/, "");
  const pep508 = /^[^=<>!~^,]*?===?\s*([^\s,()]+)\s*\)?\s*$/.exec(requirement);
  if (pep508) return !pep508[1].includes("*");
  return /^\s*=?\s*\d[\w.!+-]*\s*$/.test(requirement);
}

/** Parses pyproject.toml text as an audit input. */
export function parsePyprojectInput(source: string, file: string): ParsedLock {
  const deps = runtimeDependenciesOf(readToml(source, file));
  const entries: LockEntry[] = [];
  for (const [name, spec] of deps) {
    const raw = requirementName(spec) ?? name;
    const line = lineContaining(
      source,
      JSON.stringify(spec),
      lineMatching(source, new RegExp(`^\\s*"?${literal(raw)}"?\\s*=`, "i")),
    );
    const version = pinnedVersion(spec);
    const url = /@\s*\S+:\/\//.test(spec) || /^(git\+|https?:|path:)/.test(spec);
    entries.push(entry({
      name,
      file,
      line,
      version: url ? null : version,
      pinned: !url && version !== null && isExact(spec),
      specifier: url || isExact(spec) ? null : spec,
      source: url ? spec : null,
      direct: true,
    }));
  }
  return { entries, rootDirect: null };
}
