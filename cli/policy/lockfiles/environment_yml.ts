/**
 * Conda's `environment.yml`: the `pip:` list inside `dependencies`, read as
 * requirements lines (conda packages themselves are not PyPI packages and
 * are not evaluated). Option lines (`-r`, `-e`, `--index-url`) are skipped.
 *
 * The `yaml` package costs about 160 ms to load, so it is loaded only for
 * an environment.yml: callers await {@link loadYamlReader} first
 * (`prepareReaders` in `manifest_readers.ts` does it by file name).
 *
 * @module
 */

import { lazyImport } from "../lazy_import.ts";
import { requirementName } from "../pyproject.ts";
import { declare, type Declared, type ManifestRead } from "./declared.ts";
import { ClientError } from "../exit_codes.ts";

let yaml: typeof import("yaml") | null = null;

/** Loads the YAML parser the reader needs (once). */
export async function loadYamlReader(): Promise<void> {
  yaml ??= await lazyImport<typeof import("yaml")>("yaml");
}

/** Reads environment.yml text (after {@link loadYamlReader}); invalid YAML is a one-line `bad_input` error naming `file`. */
export function readEnvironmentYml(source: string, file: string): ManifestRead {
  if (yaml === null) throw new Error("readEnvironmentYml() before loadYamlReader()");
  const { isMap, isScalar, isSeq, LineCounter, parseDocument } = yaml;
  const counter = new LineCounter();
  const doc = parseDocument(source, { lineCounter: counter });
  if (doc.errors.length) {
    throw new ClientError(
      "bad_input",
      `Cannot parse ${file}: ${doc.errors[0].message.split("\n")[0]}`,
    );
  }
  const declared: Declared[] = [];
  const warnings: string[] = [];
  const deps = isMap(doc.contents) ? doc.contents.get("dependencies") : null;
  if (!isSeq(deps)) return { declared, warnings };
  for (const item of deps.items) {
    if (!isMap(item)) continue;
    const pip = item.get("pip");
    if (!isSeq(pip)) continue;
    for (const node of pip.items) {
      if (!isScalar(node) || typeof node.value !== "string") continue;
      const spec = node.value.trim();
      const line = counter.linePos(node.range?.[0] ?? 0).line;
      if (spec.startsWith("-")) continue;
      const name = /^[A-Za-z0-9]/.test(spec) && !/^[\w+.-]+:\/\//.test(spec)
        ? requirementName(spec)
        : null;
      if (name) declare(declared, name, spec, line);
      else warnings.push(`${file} line ${line}: not a requirement: ${spec}`);
    }
  }
  return { declared, warnings };
}
