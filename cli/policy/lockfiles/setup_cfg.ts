/**
 * `setup.cfg` (setuptools' declarative config): `[options]`
 * `install_requires`, `setup_requires` and `tests_require`, and every key of
 * `[options.extras_require]`, one requirement per line.
 *
 * @module
 */

import { requirementName } from "../pyproject.ts";
import { declare, type Declared, type ManifestRead } from "./declared.ts";
import { readIni, type ValueLine } from "./ini.ts";

/** Declares each requirement line; a line that is none becomes a warning. */
export function declareLines(
  into: Declared[],
  warnings: string[],
  file: string,
  lines: ValueLine[],
): void {
  for (const { text, line } of lines) {
    const name = requirementName(text);
    if (name && /^[A-Za-z0-9]/.test(text) && !/^[\w+.-]+:\/\//.test(text)) {
      declare(into, name, text, line);
    } else warnings.push(`${file} line ${line}: not a requirement: ${text}`);
  }
}

/** Reads setup.cfg text; `file` names it in warnings. */
export function readSetupCfg(source: string, file: string): ManifestRead {
  const doc = readIni(source);
  const declared: Declared[] = [];
  const warnings: string[] = [];
  const options = doc.get("options");
  for (const key of ["install_requires", "setup_requires", "tests_require"]) {
    declareLines(declared, warnings, file, options?.get(key) ?? []);
  }
  for (const lines of doc.get("options.extras_require")?.values() ?? []) {
    declareLines(declared, warnings, file, lines);
  }
  return { declared, warnings };
}
