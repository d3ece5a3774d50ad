/**
 * Dependency manifests the agent gate and the pre-commit check watch: any
 * `pyproject.toml`, `requirements*.txt` / `requirements/*.txt` and
 * constraints files, `setup.py`, `setup.cfg`, `Pipfile`, `tox.ini`,
 * `environment.yml` and PEP 723 blocks of `.py` files. The readers are the
 * ones `policy audit` uses (`lockfiles/manifest_readers.ts`,
 * `lockfiles/requirements.ts`). Pure functions over paths and text.
 *
 * @module
 */

import type { Dependencies } from "../pyproject.ts";
import { dependenciesOf } from "../lockfiles/declared.ts";
import { type ManifestFormat, readManifest } from "../lockfiles/manifest_readers.ts";
import { parseRequirements } from "../lockfiles/requirements.ts";
import type { ManifestKind } from "./manifest_kind.ts";

export { manifestKind, projectRootOf } from "./manifest_kind.ts";
export type { ManifestKind } from "./manifest_kind.ts";

/** Packages and referenced files (`-r`, `-c`) of a requirements file. */
export interface RequirementsEntries {
  packages: Dependencies;
  files: string[];
  /** `requirements.txt line N: …` for each line that could not be read (the rest was). */
  warnings: string[];
}

/** Where a requirements text without a file is placed: `-e .` there is the project itself. */
const TEXT_ROOT = "/__policy_text__";

/** The process environment for `${VAR}`, when readable. */
function processEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/**
 * Reads a requirements/constraints file's text as pip does, line by line:
 * continuations joined, `${VAR}` expanded from `env` (default: this
 * process's environment), options cut off; a line that is no requirement is
 * a warning and the others are still read. Included files are listed, not read.
 */
export function requirementsFileEntries(
  text: string,
  env: (name: string) => string | undefined = processEnv,
  file = "requirements.txt",
): RequirementsEntries {
  const parsed = parseRequirements(`${TEXT_ROOT}/${file}`, text, {
    read: () => {
      throw new Deno.errors.NotFound("included files are listed, not read");
    },
    label: (path) => path.slice(TEXT_ROOT.length + 1),
    root: TEXT_ROOT,
    env,
  });
  const packages: Dependencies = new Map();
  for (const e of parsed.entries) {
    if (!packages.has(e.name)) packages.set(e.name, e.requirement ?? e.name);
  }
  const files = parsed.included ?? [];
  const warnings = (parsed.warnings ?? []).filter((w) => !/: cannot read [^ ]+$/.test(w));
  return { packages, files, warnings };
}

const FORMAT: Record<Exclude<ManifestKind, "requirements">, ManifestFormat> = {
  "pyproject": "pyproject.toml",
  "setup.py": "setup.py",
  "setup.cfg": "setup.cfg",
  "Pipfile": "Pipfile",
  "tox.ini": "tox.ini",
  "environment.yml": "environment.yml",
  "script": "script",
};

/**
 * Dependencies of a manifest's text: every requirement a pyproject.toml
 * declares (runtime first, then optional dependencies, dependency groups,
 * Poetry groups, build requirements), every requirement of a requirements
 * or constraints file, and the requirements of the other kinds. Throws a
 * one-line error on unparsable TOML or YAML.
 */
export function manifestDependencies(kind: ManifestKind, text: string): Dependencies {
  return manifestReading(kind, text).packages;
}

/** A manifest's dependencies and the `FILE line N: …` parts it could not read. */
export interface ManifestReading {
  packages: Dependencies;
  warnings: string[];
}

/**
 * {@link manifestDependencies} with the warnings of what could not be read
 * (an odd requirements line, a `setup.py` list that is no literal); `file`
 * names the manifest in them. Throws a one-line error on unparsable TOML or YAML.
 */
export function manifestReading(
  kind: ManifestKind,
  text: string,
  file: string = kind === "requirements" ? "requirements.txt" : FORMAT[kind],
): ManifestReading {
  if (kind === "requirements") {
    const { packages, warnings } = requirementsFileEntries(text, processEnv, file);
    return { packages, warnings };
  }
  const read = readManifest(FORMAT[kind], text, file);
  return { packages: dependenciesOf(read.declared), warnings: read.warnings };
}
