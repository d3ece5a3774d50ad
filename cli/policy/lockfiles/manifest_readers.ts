/**
 * One reader per manifest kind, shared by the agent hook, the pre-commit
 * check and `policy audit` (issue 27): the dispatcher by file name and the
 * readers it picks. Each returns {@link ManifestRead}: the declared
 * requirements and a warning per part it could not read.
 *
 * @module
 */

import { basename } from "node:path";
import type { ManifestKind } from "../agents/manifest_kind.ts";
import type { ManifestRead } from "./declared.ts";
import { loadYamlReader, readEnvironmentYml } from "./environment_yml.ts";
import { readScriptBlock } from "./pep723.ts";
import { readPipfileManifest } from "./pipfile_manifest.ts";
import { readPyprojectManifest } from "./pyproject_manifest.ts";
import { readSetupCfg } from "./setup_cfg.ts";
import { readSetupPy } from "./setup_py.ts";
import { readToxIni } from "./tox_ini.ts";

export type { Declared, ManifestRead } from "./declared.ts";
export { readEnvironmentYml } from "./environment_yml.ts";
export { readScriptBlock } from "./pep723.ts";
export { readPipfileManifest } from "./pipfile_manifest.ts";
export { readPyprojectManifest } from "./pyproject_manifest.ts";
export { readSetupCfg } from "./setup_cfg.ts";
export { readSetupPy } from "./setup_py.ts";
export { readToxIni } from "./tox_ini.ts";

/** The manifest kinds besides requirements files (which `requirements.ts` reads). */
export type ManifestFormat =
  | Exclude<ManifestKind, "pyproject" | "requirements">
  | "pyproject.toml";

const READERS: Record<ManifestFormat, (source: string, file: string) => ManifestRead> = {
  "pyproject.toml": readPyprojectManifest,
  "setup.py": readSetupPy,
  "setup.cfg": readSetupCfg,
  "Pipfile": readPipfileManifest,
  "tox.ini": readToxIni,
  "environment.yml": readEnvironmentYml,
  "script": readScriptBlock,
};

/** The manifest kind a file name says, or null (requirements files and lock files are not manifests here). */
export function manifestFormatByName(path: string): ManifestFormat | null {
  const name = basename(path);
  if (name === "pyproject.toml") return "pyproject.toml";
  if (name === "setup.py") return "setup.py";
  if (name === "setup.cfg") return "setup.cfg";
  if (name === "Pipfile") return "Pipfile";
  if (name === "tox.ini") return "tox.ini";
  if (/^environment\.ya?ml$/.test(name)) return "environment.yml";
  if (/\.py$/.test(name)) return "script";
  return null;
}

/** Reads a manifest of kind `format`; `file` names it in warnings and errors. */
export function readManifest(format: ManifestFormat, source: string, file: string): ManifestRead {
  return READERS[format](source, file);
}

/**
 * Loads what the readers of these files (paths, or a shell command's text)
 * need beyond themselves: the YAML parser when an `environment.yml` is among
 * them. Await it before reading.
 */
export async function prepareReaders(paths: Iterable<string>): Promise<void> {
  for (const path of paths) {
    if (/environment\.ya?ml/.test(path)) return await loadYamlReader();
  }
}
