/**
 * The YAML export of the registry workshop: the live registry as an authored
 * document (no `compiled_at`, which the schema does not accept), optionally
 * with rules proposed in the browser session merged in.
 *
 * @module
 */
import type { CompiledRegistry, PackageRule } from "../src/core/types.ts";
import { validateRegistry, validateRule, type ValidationError } from "../src/registry/schema.ts";
import { toYaml } from "../src/registry/yaml.ts";

/** Result of {@link exportRegistryYaml}. */
export type ExportResult = { ok: true; yaml: string } | { ok: false; errors: ValidationError[] };

function authoredRule(rule: PackageRule): Record<string, string> {
  const out: Record<string, string> = { name: rule.name, status: rule.status };
  if (rule.min_version) out.min_version = rule.min_version;
  if (rule.max_version) out.max_version = rule.max_version;
  if (rule.reason) out.reason = rule.reason;
  if (rule.replacement) out.replacement = rule.replacement;
  return out;
}

/**
 * Serialises `registry` as registry YAML, with `extraRules` (JSON texts of
 * single rules) inserted or replacing rules of the same normalised name.
 * With extra rules the `version` is left out, so compiling the document
 * gives it a fresh content hash.
 *
 * @example
 * ```ts
 * import { emptySnapshot } from "../src/registry/compile.ts";
 * const { registry } = await emptySnapshot();
 * const r = exportRegistryYaml(registry, ['{"name":"six","status":"approved"}'], new Date());
 * if (r.ok) await Deno.writeTextFile("registry.yaml", r.yaml);
 * ```
 */
export function exportRegistryYaml(
  registry: CompiledRegistry,
  extraRules: string[],
  now: Date,
): ExportResult {
  const rules = new Map(registry.packages.map((rule) => [rule.name, rule]));
  const errors: ValidationError[] = [];
  extraRules.forEach((text, index) => {
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch {
      errors.push({ path: `rule[${index}]`, message: "is not valid JSON" });
      return;
    }
    const checked = validateRule(input);
    if (!checked.ok) {
      for (const e of checked.errors) {
        errors.push({ path: `rule[${index}].${e.path}`, message: e.message });
      }
    } else rules.set(checked.value.name, checked.value);
  });
  if (errors.length) return { ok: false, errors };

  const document = {
    ...(extraRules.length ? {} : { version: registry.version }),
    policies: registry.policies,
    packages: [...rules.values()].sort((a, b) => a.name.localeCompare(b.name)).map(authoredRule),
    // Exceptions are kept as authored (compiled exceptions hold only authored fields).
    ...(registry.exceptions?.length ? { exceptions: registry.exceptions } : {}),
  };
  // The export must be importable: run it through the one validator.
  const valid = validateRegistry(document);
  if (!valid.ok) return valid;
  const header =
    `# policyd registry exported ${now.toISOString()} from registry version ${registry.version}` +
    (extraRules.length ? ` with ${extraRules.length} proposed rule(s)` : "") + "\n";
  return { ok: true, yaml: header + toYaml(document) };
}
