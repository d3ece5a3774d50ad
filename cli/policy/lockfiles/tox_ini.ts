/**
 * `tox.ini`: the `deps` of `[testenv]` and every `[testenv:NAME]`, one
 * requirement per line. A factor condition (`py311: pytest`) is dropped and
 * the requirement kept; `-r`/`-c` lines name files read on their own;
 * substitutions (`{[testenv]deps}`, `{env:X}`) cannot be resolved here and
 * are warnings.
 *
 * @module
 */

import type { Declared, ManifestRead } from "./declared.ts";
import { readIni } from "./ini.ts";
import { declareLines } from "./setup_cfg.ts";

/** Reads tox.ini text; `file` names it in warnings. */
export function readToxIni(source: string, file: string): ManifestRead {
  const declared: Declared[] = [];
  const warnings: string[] = [];
  for (const [section, keys] of readIni(source)) {
    if (section !== "testenv" && !section.startsWith("testenv:")) continue;
    const lines = (keys.get("deps") ?? [])
      .map((l) => ({ ...l, text: l.text.replace(/^[\w!.,{}-]+:\s+/, "") }))
      .filter((l) => !/^-[rc]\s*\S|^--(requirement|constraint)\b/.test(l.text));
    const substituted = lines.filter((l) => /\{[^}]*\}/.test(l.text));
    for (const l of substituted) {
      warnings.push(`${file} line ${l.line}: a tox substitution is not read: ${l.text}`);
    }
    declareLines(declared, warnings, file, lines.filter((l) => !substituted.includes(l)));
  }
  return { declared, warnings };
}
