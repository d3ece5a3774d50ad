/**
 * What a dependency manifest declares, in one shape for every kind
 * (`pyproject.toml`, `setup.py`, `setup.cfg`, `Pipfile`, PEP 723 script
 * blocks, `tox.ini`, `environment.yml`): the name, the specifier as written
 * and its line. The hook and pre-commit diff these as {@link Dependencies};
 * `policy audit` turns them into {@link LockEntry} rows.
 *
 * @module
 */

import { normalizeName } from "../../../src/core/names.ts";
import { type Dependencies, pinnedVersion } from "../pyproject.ts";
import { entry, type LockEntry } from "./types.ts";

/** One requirement a manifest declares. */
export interface Declared {
  /** PEP 503-normalised name. */
  name: string;
  /**
   * The requirement as written: a PEP 508 line (`requests>=2`) or, for
   * Poetry and Pipfile tables, a bare constraint (`^2.1`, `*`, `git+…`).
   */
  spec: string;
  /** 1-based line of the manifest. */
  line: number;
  /** Where a pyproject.toml declares it: `runtime` (SPEC §11) or another group. */
  group?: "runtime" | "other";
}

/** What a manifest reader returns: the requirements and one warning per part it could not read. */
export interface ManifestRead {
  declared: Declared[];
  /** `FILE line N: …` sentences. */
  warnings: string[];
}

/** Adds a declaration unless the name is already declared (the first one wins). */
export function declare(into: Declared[], name: string, spec: string, line: number): void {
  const key = normalizeName(name);
  if (!into.some((d) => d.name === key)) into.push({ name: key, spec: spec.trim(), line });
}

/** The declarations as the hook and pre-commit diff them: name → spec, first one wins. */
export function dependenciesOf(declared: Declared[]): Dependencies {
  const deps: Dependencies = new Map();
  for (const d of declared) if (!deps.has(d.name)) deps.set(d.name, d.spec);
  return deps;
}

/** Whether a specifier pins one exact version (`name==1.2`, Poetry's bare `1.2`). */
export function isExactSpec(spec: string): boolean {
  const requirement = spec.replace(/;.*$/, "");
  const pep508 = /^[^=<>!~^,]*?===?\s*([^\s,()]+)\s*\)?\s*$/.exec(requirement);
  if (pep508) return !pep508[1].includes("*");
  return /^\s*=?\s*\d[\w.!+-]*\s*$/.test(requirement);
}

/** Whether a spec names a URL, VCS or path source rather than an index version. */
export function isSourceSpec(spec: string): boolean {
  return /@\s*\S+:\/\//.test(spec) || /^(git\+|https?:|path:)/.test(spec);
}

/** One declaration as an audit entry (all declarations are direct). */
export function declaredEntry(d: Declared, file: string): LockEntry {
  const version = pinnedVersion(d.spec);
  const url = isSourceSpec(d.spec);
  const exact = isExactSpec(d.spec);
  return entry({
    name: d.name,
    file,
    line: d.line,
    version: url ? null : version,
    pinned: !url && version !== null && exact,
    specifier: url || exact || d.spec === "*" ? null : d.spec,
    source: url ? d.spec : null,
    direct: true,
  });
}
