/**
 * Compiling a registry: YAML text → validated, normalised, sorted document
 * with `version` (a content hash when absent) and `compiled_at`.
 *
 * @module
 */
import type { CompiledRegistry, RegistrySnapshot } from "../core/types.ts";
import { validateRegistry, type ValidationError } from "./schema.ts";
import { locateErrors, parseYaml } from "./yaml.ts";

/** Result of compiling: the registry (and its source hash) or errors. */
export type Compiled =
  | { ok: true; registry: CompiledRegistry; contentHash: string }
  | { ok: false; errors: ValidationError[] };

/** SHA-256 hex digest of a text. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function stripUndefined<T extends object>(rule: T): T {
  return Object.fromEntries(Object.entries(rule).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Compiles YAML text. `now` is injectable so output is reproducible in tests.
 *
 * @example
 * ```ts
 * const c = await compileRegistry("packages: [{name: Foo, status: banned}]", new Date(0));
 * c.ok && c.registry.packages[0].name; // "foo"
 * ```
 */
export async function compileRegistry(text: string, now: Date = new Date()): Promise<Compiled> {
  const parsed = parseYaml(text);
  if (!parsed.ok) return parsed;
  const validated = validateRegistry(parsed.value);
  if (!validated.ok) return { ok: false, errors: locateErrors(text, validated.errors) };
  const doc = validated.value;
  const packages = doc.packages.map(stripUndefined).sort((a, b) => a.name.localeCompare(b.name));
  const contentHash = await sha256Hex(text);
  return {
    ok: true,
    contentHash,
    registry: {
      version: doc.version ?? `sha256:${contentHash.slice(0, 12)}`,
      compiled_at: now.toISOString(),
      policies: doc.policies,
      packages,
      exceptions: doc.exceptions
        .map((e) => stripUndefined(e))
        .sort((a, b) => a.package.localeCompare(b.package) || a.expires.localeCompare(b.expires)),
    },
  };
}

/** Builds an immutable snapshot (with a name index) of a compiled registry. */
export function createSnapshot(registry: CompiledRegistry, contentHash: string): RegistrySnapshot {
  const byName = new Map(registry.packages.map((rule) => [rule.name, rule]));
  return Object.freeze({ registry: deepFreeze(registry), byName, contentHash });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** An empty registry with default policies, used before any file exists. */
export async function emptySnapshot(now: Date = new Date()): Promise<RegistrySnapshot> {
  const compiled = await compileRegistry("packages: []\n", now);
  if (!compiled.ok) throw new Error("the empty registry failed to compile");
  return createSnapshot(compiled.registry, compiled.contentHash);
}
