/**
 * Every report's "top N": the items with the highest count first, ties in
 * ascending order of their name, at most `limit` of them. One function, so
 * the reports (and the dashboards built on them) always rank alike.
 *
 * @module
 */
import type { AuditGroup } from "../store/types.ts";

/**
 * The `limit` items with the highest `count`, ties by `key` ascending.
 *
 * @example
 * ```ts
 * const rows = [{ name: "b", n: 2 }, { name: "a", n: 2 }, { name: "c", n: 5 }];
 * topBy(rows, 2, (r) => r.n, (r) => r.name).map((r) => r.name); // ["c", "a"]
 * ```
 */
export function topBy<T>(
  items: Iterable<T>,
  limit: number,
  count: (item: T) => number,
  key: (item: T) => string,
): T[] {
  return [...items]
    .sort((a, b) => count(b) - count(a) || key(a).localeCompare(key(b)))
    .slice(0, Math.max(0, limit));
}

/**
 * The most denied packages of audit groups keyed by `package`: `{package,
 * denials}` plus what `extra` takes from each group, ranked by {@link topBy}.
 *
 * @example
 * ```ts
 * import type { AuditGroup } from "../store/types.ts";
 * declare const groups: AuditGroup[];
 * topDeniedPackages(groups, 10, (g) => ({ max_cvss: g.max_cvss }));
 * ```
 */
export function topDeniedPackages<E extends object>(
  groups: readonly AuditGroup[],
  limit: number,
  extra: (group: AuditGroup) => E,
): Array<{ package: string; denials: number } & E> {
  return topBy(
    groups.map((g) => ({ package: g.keys.package ?? "", denials: g.count, ...extra(g) })),
    limit,
    (p) => p.denials,
    (p) => p.package,
  );
}
