/**
 * Removing one rule from a registry YAML document (issue #31: reverting a
 * change that added a package). The rule's lines are cut where they stand,
 * so a removal right after an insertion gives back the bytes from before it;
 * when the layout allows no cut (a flow list, the last rule of the list),
 * the document is re-rendered through the `yaml` Document API. The result is
 * validated with the one validator before anything is written.
 *
 * @module
 */
import { isMap, isSeq, parseDocument, type YAMLMap } from "yaml";
import { normalizeName } from "../core/names.ts";
import { validateRegistry, type ValidationError } from "../registry/schema.ts";
import { parseYaml } from "../registry/yaml.ts";

/** Result of a removal: the new text (and whether it differs) or path-qualified errors. */
export type RemoveOutcome =
  | { ok: true; text: string; changed: boolean; rule: { name: string; status: string } }
  | { ok: false; errors: ValidationError[]; where: "rule" | "registry" };

function nameOf(item: unknown): string | null {
  if (!isMap(item)) return null;
  const name = (item as YAMLMap).get("name");
  return typeof name === "string" ? normalizeName(name.trim()) : null;
}

/** Cuts the lines of block item `index`; null when it is not a plain block item. */
function cutLines(text: string, item: YAMLMap): string | null {
  const range = item.range;
  if (!range || item.flow) return null;
  const from = text.lastIndexOf("\n", range[0] - 1) + 1;
  if (!/^ *- +$/.test(text.slice(from, range[0]))) return null;
  const end = range[2];
  const to = end > 0 && text[end - 1] === "\n"
    ? end
    : (text.indexOf("\n", end) < 0 ? text.length : text.indexOf("\n", end) + 1);
  return text.slice(0, from) + text.slice(to);
}

/**
 * Removes the rule for `name` (any spelling; matched by its PEP 503 form)
 * from the registry YAML `source`. A document without the rule is returned
 * unchanged.
 *
 * @example
 * ```ts
 * const text = "packages:\n  - name: a\n    status: approved\n  - name: b\n    status: banned\n";
 * const out = removeRule(text, "B");
 * out.ok && out.text; // "packages:\n  - name: a\n    status: approved\n"
 * ```
 */
export function removeRule(source: string | null, name: string): RemoveOutcome {
  const wanted = normalizeName(name.trim());
  const rule = { name: wanted, status: "removed" };
  const original = source ?? "";
  const limited = parseYaml(original);
  if (!limited.ok) return { ok: false, errors: limited.errors, where: "registry" };
  const doc = parseDocument(original, { uniqueKeys: true });
  const packages = isMap(doc.contents) ? doc.get("packages", true) : null;
  if (!isSeq(packages)) return { ok: true, text: original, changed: false, rule };
  const index = packages.items.findIndex((item) => nameOf(item) === wanted);
  if (index < 0) return { ok: true, text: original, changed: false, rule };
  let text = packages.items.length > 1 && !packages.flow
    ? cutLines(original, packages.items[index] as YAMLMap)
    : null;
  if (text === null) {
    packages.items.splice(index, 1);
    text = doc.toString({ lineWidth: 0 });
  }
  const reparsed = parseYaml(text);
  if (!reparsed.ok) return { ok: false, errors: reparsed.errors, where: "registry" };
  const validated = validateRegistry(reparsed.value);
  if (!validated.ok) return { ok: false, errors: validated.errors, where: "registry" };
  return { ok: true, text, changed: true, rule };
}
