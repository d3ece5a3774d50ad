/**
 * Inserting or replacing one rule in a registry YAML document, keeping the
 * author's comments and layout, and validating the merged document with
 * the one validator before anything is written.
 *
 * @module
 */
import { type Document, isMap, isSeq, parseDocument, type YAMLMap } from "yaml";
import { normalizeName } from "../core/names.ts";
import {
  type ValidatedRule,
  validateRegistry,
  validateRule,
  type ValidationError,
} from "../registry/schema.ts";
import { parseYaml } from "../registry/yaml.ts";
import type { ProposedRule } from "./types.ts";
import { spliceRule } from "./rule_splice.ts";
import { refreshVersion } from "./registry_version.ts";

/** Result of an edit: the new text (and whether it differs) or path-qualified errors. */
export type EditOutcome =
  | { ok: true; text: string; changed: boolean; rule: ValidatedRule }
  | { ok: false; errors: ValidationError[]; where: "rule" | "registry" };

const RULE_KEYS = [
  "name",
  "status",
  "reason",
  "replacement",
  "min_version",
  "max_version",
] as const;

/** The rule as written to YAML: normalised name, fixed key order, no empty fields. */
function ruleForYaml(rule: ValidatedRule): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of RULE_KEYS) {
    const value = rule[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function nameOf(item: unknown): string | null {
  if (!isMap(item)) return null;
  const name = (item as YAMLMap).get("name");
  return typeof name === "string" ? normalizeName(name.trim()) : null;
}

/** Validates a proposed rule on its own (the one validator). */
export function checkRule(
  rule: ProposedRule,
): { ok: true; rule: ValidatedRule } | { ok: false; errors: ValidationError[] } {
  const validated = validateRule(rule);
  if (!validated.ok) {
    return { ok: false, errors: validated.errors.map((e) => ({ ...e, path: `rule.${e.path}` })) };
  }
  return { ok: true, rule: validated.value };
}

/**
 * Inserts or replaces `proposed` in the YAML `source` (null = no file yet:
 * an empty registry) and validates the merged document. When the rules
 * change and the document has a `version:`, that value is refreshed
 * ({@link refreshVersion}) so the registry version keeps identifying the rules.
 *
 * @example
 * ```ts
 * const edit = upsertRule("packages: []\n", { name: "Left_Pad", status: "approved" });
 * edit.ok && edit.text; // "packages:\n  - name: left-pad\n    status: approved\n"
 * ```
 */
export function upsertRule(source: string | null, proposed: ProposedRule): EditOutcome {
  const checked = checkRule(proposed);
  if (!checked.ok) return { ok: false, errors: checked.errors, where: "rule" };
  const rule = checked.rule;
  const original = source ?? "";
  const limited = parseYaml(original);
  if (!limited.ok) return { ok: false, errors: limited.errors, where: "registry" };

  const fields = ruleForYaml(rule);
  const inPlace = spliceRule(original, fields);
  const edited = inPlace ?? rerender(original, fields);
  if (typeof edited !== "string") return edited;
  if (edited === original) return { ok: true, text: original, changed: false, rule };
  // Changed rules need a changed registry version (an authored `version:` line gets a fresh value).
  const text = refreshVersion(edited);
  const reparsed = parseYaml(text);
  if (!reparsed.ok) return { ok: false, errors: reparsed.errors, where: "registry" };
  const validated = validateRegistry(reparsed.value);
  if (!validated.ok) return { ok: false, errors: validated.errors, where: "registry" };
  return { ok: true, text, changed: true, rule };
}

/**
 * The fallback when the layout allows no in-place edit ({@link spliceRule}):
 * the rule is set through the Document API and the document re-rendered
 * (comments kept, flow collections may be re-spaced).
 */
function rerender(original: string, fields: Record<string, string>): string | EditOutcome {
  const doc = parseDocument(original, { uniqueKeys: true });
  if (doc.contents === null) (doc as Document).contents = doc.createNode({});
  if (!isMap(doc.contents)) {
    return {
      ok: false,
      where: "registry",
      errors: [{ path: "(root)", message: "the registry document is not a mapping" }],
    };
  }
  let packages = doc.get("packages");
  if (packages === undefined || packages === null) {
    doc.set("packages", doc.createNode([]));
    packages = doc.get("packages");
  }
  if (!isSeq(packages)) {
    return {
      ok: false,
      where: "registry",
      errors: [{ path: "packages", message: "is not a list" }],
    };
  }
  const node = doc.createNode(fields);
  const items = packages.items;
  const existing = items.findIndex((item) => nameOf(item) === normalizeName(fields.name));
  if (existing >= 0) {
    if (JSON.stringify((items[existing] as YAMLMap).toJSON()) === JSON.stringify(fields)) {
      return original;
    }
    items[existing] = node;
  } else {
    // Keep a sorted list sorted; an unsorted one gets the rule at the first later name.
    const at = items.findIndex((item) => (nameOf(item) ?? "") > fields.name);
    items.splice(at < 0 ? items.length : at, 0, node);
    packages.flow = false;
  }
  return doc.toString({ lineWidth: 0 });
}

/** One line describing validation errors, for a result detail. */
export function describeErrors(errors: ValidationError[]): string {
  const shown = errors.slice(0, 5).map((e) => `${e.path}: ${e.message}`).join("; ");
  return errors.length > 5 ? `${shown}; … (${errors.length - 5} more)` : shown;
}
