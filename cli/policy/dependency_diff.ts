/**
 * Dependency maps and their difference, without any parser: shared by the
 * full manifest readers (`pyproject.ts`) and the pre-commit quick path
 * (`hooks/precommit_quick.ts`), which must not load the requirement parser.
 *
 * @module
 */

/** Normalised package name → raw specifier as written in the file. */
export type Dependencies = Map<string, string>;

/**
 * Diff of two dependency maps: `[added, removed]` where `added` holds new
 * names and names whose specifier changed, and `removed` the names gone.
 *
 * @example
 * ```ts
 * diffDependencies(new Map([["a", "a==1"]]), new Map([["a", "a==2"]]))[0]; // Map { "a" => "a==2" }
 * ```
 */
export function diffDependencies(
  before: Dependencies,
  after: Dependencies,
): [Dependencies, Set<string>] {
  const added: Dependencies = new Map();
  for (const [name, spec] of after) {
    if (before.get(name) !== spec) added.set(name, spec);
  }
  const removed = new Set([...before.keys()].filter((name) => !after.has(name)));
  return [added, removed];
}
