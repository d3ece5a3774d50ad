/**
 * The pre-commit quick path (issue #27 point 10): when every staged manifest
 * is a requirements file or a `pyproject.toml` whose requirements are all
 * plain (`name`, `name==1.2.3`, `name>=1.0,<2`), the added dependencies and
 * their queries are read here with one regular expression per requirement,
 * without the PEP 508 parser (pip-requirements-js and its Ohm grammar cost
 * about ten empty Deno starts for 50 lines; docs/performance.md). Anything
 * else (extras, markers, URLs, options, includes, `${VAR}`, continuations,
 * inline comments, Poetry tables, unparsable text) makes the whole run take
 * the full check in `precommit.ts`. `precommit_quick_test.ts` checks that the
 * two agree on every form accepted here.
 *
 * @module
 */

import { type Dependencies, diffDependencies } from "../dependency_diff.ts";
import { manifestKind } from "../agents/manifest_kind.ts";
import { normalizeName, plainRequirement as plainForm } from "../../../src/core/names.ts";
import { lazyImport } from "../lazy_import.ts";
import { parseSimpleToml } from "../simple_toml.ts";
import type { RangeQuery } from "../range_query.ts";
import type { ManifestChange } from "./precommit.ts";
import { judgeQueries, type PrecommitClient, type PrecommitResult } from "./precommit_verdict.ts";

/**
 * A plain requirement's name and clauses (whitespace removed), or null for
 * any other form. A name starting with a digit is left out: `pinnedVersion`
 * reads `9lives==1` as a Poetry constraint.
 */
export function plainRequirement(spec: string): { name: string; clauses: string[] } | null {
  const plain = plainForm(spec);
  if (!plain || !/^[A-Za-z]/.test(plain.name)) return null;
  return { name: plain.name, clauses: plain.clauses.map((c) => `${c.operator}${c.version}`) };
}

/**
 * Dependencies of a requirements file whose every line is blank, a comment
 * or a plain requirement; null for anything else (the full reader decides).
 *
 * @example
 * ```ts
 * quickRequirements("# pins\nrequests==2.32.3\n"); // Map { "requests" => "requests==2.32.3" }
 * quickRequirements("-r base.txt\n"); // null
 * ```
 */
export function quickRequirements(text: string): Dependencies | null {
  const deps: Dependencies = new Map();
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*#/.test(raw)) continue;
    const line = raw.trim();
    if (!line) continue;
    const plain = plainRequirement(line);
    if (!plain) return null;
    const key = normalizeName(plain.name);
    if (!deps.has(key)) deps.set(key, line);
  }
  return deps;
}

type Doc = Record<string, unknown>;

const isTable = (value: unknown): value is Doc =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Adds a list of plain requirement strings; false when the list or an item is anything else. */
function addPlainList(into: Dependencies, list: unknown): boolean {
  if (list === undefined) return true;
  if (!Array.isArray(list)) return false;
  for (const item of list) {
    if (typeof item !== "string") return false;
    const spec = item.trim();
    const plain = plainRequirement(spec);
    if (!plain) return false;
    const key = normalizeName(plain.name);
    if (!into.has(key)) into.set(key, spec);
  }
  return true;
}

/** Adds every list of a table of lists (`optional-dependencies`, `dependency-groups`). */
function addPlainLists(into: Dependencies, lists: unknown): boolean {
  if (lists === undefined) return true;
  if (!isTable(lists)) return false;
  return Object.values(lists).every((list) => addPlainList(into, list));
}

/**
 * Dependencies of a parsed `pyproject.toml` in the full reader's order
 * (`[project].dependencies`, optional dependencies, dependency groups, uv's
 * `dev-dependencies`, `[build-system].requires`) when all of them are plain
 * strings and there is no Poetry section; null otherwise.
 */
export function quickPyproject(doc: Doc): Dependencies | null {
  const deps: Dependencies = new Map();
  const { project, tool } = doc;
  const build = doc["build-system"];
  if (project !== undefined && !isTable(project)) return null;
  if (tool !== undefined && !isTable(tool)) return null;
  if (build !== undefined && !isTable(build)) return null;
  if (tool && "poetry" in tool) return null;
  const uv = tool?.uv;
  if (uv !== undefined && !isTable(uv)) return null;
  const ok = addPlainList(deps, project?.dependencies) &&
    addPlainLists(deps, project?.["optional-dependencies"]) &&
    addPlainLists(deps, doc["dependency-groups"]) &&
    addPlainList(deps, uv?.["dev-dependencies"]) &&
    addPlainList(deps, build?.requires);
  return ok ? deps : null;
}

/**
 * The evaluation query of a plain requirement, as `rangeQuery` builds it: a
 * single `==` pin is sent as the version, clauses as a range on the name,
 * none as the name alone.
 *
 * @example
 * ```ts
 * quickQuery("urllib3", "urllib3 >= 1.26, < 2"); // { package: "urllib3>=1.26,<2", version: null }
 * ```
 */
export function quickQuery(name: string, spec: string): RangeQuery {
  const clauses = plainRequirement(spec)?.clauses ?? [];
  if (clauses.length === 1 && clauses[0].startsWith("==")) {
    return { package: name, version: clauses[0].slice(2) };
  }
  if (clauses.length === 0) return { package: name, version: null };
  return { package: `${name}${clauses.join(",")}`, version: null };
}

/** Parses TOML text (smol-toml's `parse`). */
export type ParseToml = (text: string) => Doc;

/** One manifest's dependencies by the quick readers, or null. */
function quickDependencies(path: string, text: string, parseToml: ParseToml): Dependencies | null {
  const kind = manifestKind(path);
  if (kind === "requirements") return quickRequirements(text);
  if (kind !== "pyproject") return null;
  let doc: Doc;
  try {
    doc = parseToml(text);
  } catch {
    return null; // the full reader words the error
  }
  return quickPyproject(doc);
}

/**
 * The dependencies the staged changes add or change (first manifest wins),
 * or null when any manifest, staged or at HEAD, needs the full readers.
 */
export function quickAdded(
  manifests: ManifestChange[],
  parseToml: ParseToml,
): Dependencies | null {
  const added: Dependencies = new Map();
  for (const m of manifests) {
    const after = quickDependencies(m.path, m.after, parseToml);
    if (after === null) return null;
    const before = m.before === null ? new Map() : quickDependencies(m.path, m.before, parseToml);
    if (before === null) return null;
    for (const [name, spec] of diffDependencies(before, after)[0]) {
      if (!added.has(name)) added.set(name, spec);
    }
  }
  return added;
}

/**
 * Runs the pre-commit check by the quick readers, or returns null when the
 * staged manifests need the full check (`runPrecommit`). smol-toml is loaded
 * only for a staged `pyproject.toml` outside the simple TOML reader's subset
 * (`simple_toml.ts`).
 */
export async function quickPrecommit(
  manifests: ManifestChange[],
  client: PrecommitClient,
): Promise<PrecommitResult | null> {
  if (!manifests.every((m) => ["requirements", "pyproject"].includes(manifestKind(m.path)!))) {
    return null;
  }
  // The simple TOML reader takes most small files; smol-toml is loaded only for the others.
  const simple = new Map<string, Doc | null>();
  for (const m of manifests) {
    if (manifestKind(m.path) !== "pyproject") continue;
    for (const text of [m.before, m.after]) {
      if (text !== null && !simple.has(text)) simple.set(text, parseSimpleToml(text));
    }
  }
  let full: ParseToml = () => {
    throw new Error("no TOML reader loaded");
  };
  if ([...simple.values()].includes(null)) {
    full = (await lazyImport<typeof import("smol-toml")>("smol-toml")).parse as ParseToml;
  }
  const added = quickAdded(manifests, (text) => simple.get(text) ?? full(text));
  if (added === null) return null;
  if (added.size === 0) return { code: 0, stderr: "" };
  const queries = [...added].map(([name, spec]) => quickQuery(name, spec));
  return await judgeQueries(queries, client, manifests.map((m) => m.path));
}
