/**
 * PEP 723 inline script metadata: the `# /// script` block of any `.py`
 * file, whose TOML `dependencies` list `uv run` and `pipx run` install.
 * The block is found with the PEP's regular expression (content matched lazily).
 *
 * @module
 */

import { requirementName } from "../pyproject.ts";
import { declare, type Declared, type ManifestRead } from "./declared.ts";
import { lineAt } from "./locate.ts";
import { readToml } from "./values.ts";

// The PEP's expression, with the content taken lazily so that each block ends at its own `# ///`
// (the greedy original runs two blocks of one file together).
const BLOCK = /^# \/\/\/ (?<type>[a-zA-Z0-9-]+)$\s(?<content>(?:^#(?:| .*)$\s)+?)^# \/\/\/$/gm;

/** Whether text holds a PEP 723 `script` block (cheap test before parsing). */
export function hasScriptBlock(source: string): boolean {
  return source.includes("# /// script");
}

/** Reads the `script` block of a Python file; no block, no requirements. */
export function readScriptBlock(source: string, file: string): ManifestRead {
  const declared: Declared[] = [];
  const warnings: string[] = [];
  for (const match of source.matchAll(BLOCK)) {
    if (match.groups!.type !== "script") continue;
    const first = lineAt(source, match.index!) + 1;
    const lines = match.groups!.content.split("\n").slice(0, -1);
    const toml = lines.map((l) => l.replace(/^# ?/, "")).join("\n");
    let doc;
    try {
      doc = readToml(toml, `${file} (script block)`);
    } catch (error) {
      warnings.push(`${file} line ${first - 1}: ${(error as Error).message}`);
      continue;
    }
    const deps = Array.isArray(doc.dependencies) ? doc.dependencies : [];
    for (const item of deps) {
      if (typeof item !== "string") continue;
      const name = requirementName(item);
      const offset = lines.findIndex((l) =>
        l.includes(JSON.stringify(item)) || l.includes(`'${item}'`)
      );
      if (name) declare(declared, name, item, offset < 0 ? first : first + offset);
    }
  }
  return { declared, warnings };
}
