/**
 * Which packages a reload may approve: pending approval requests flip to
 * `APPROVED` only for packages whose new rule allows them (issue #34), never
 * for a package the registry bans or deprecates.
 *
 * @module
 */
import type { RegistrySnapshot, RegistryStatus } from "../core/types.ts";

/** Registry statuses that allow a package (a version constraint allows the versions it admits). */
export const ALLOWING_STATUSES: ReadonlySet<RegistryStatus> = new Set<RegistryStatus>([
  "preferred",
  "approved",
  "version-constrained",
]);

/**
 * The normalised names of `snapshot` whose rule allows the package: the
 * packages whose pending requests a reload approves.
 *
 * @example
 * ```ts
 * import { compileRegistry, createSnapshot } from "../registry/compile.ts";
 * const c = await compileRegistry("packages: [{name: a, status: approved}, {name: b, status: banned}]");
 * if (c.ok) approvablePackages(createSnapshot(c.registry, c.contentHash)); // ["a"]
 * ```
 */
export function approvablePackages(snapshot: RegistrySnapshot): string[] {
  const names: string[] = [];
  for (const [name, rule] of snapshot.byName) {
    if (ALLOWING_STATUSES.has(rule.status)) names.push(name);
  }
  return names;
}
