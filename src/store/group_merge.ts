/**
 * Merging audit groups: the rollups store one group per time bucket, and a
 * report window adds up many buckets and raw pieces. Count, MAX(max_cvss),
 * MAX(ts), the distinct projects and the union of CVE lists all combine
 * exactly.
 *
 * @module
 */
import type { AuditGroup, AuditGroupKey } from "./types.ts";

interface Partial {
  keys: AuditGroup["keys"];
  count: number;
  max_cvss: number | null;
  last_ts: string;
  projects: Set<string>;
  cve_ids: Set<string>;
}

/** One group to add: its keys already narrowed to the call's grouping. */
export interface GroupPart {
  keys: AuditGroup["keys"];
  count: number;
  max_cvss: number | null;
  last_ts: string;
  projects: readonly string[];
  cve_ids: readonly string[];
}

/** Adds up groups with equal keys. */
export interface GroupMerger {
  add(part: GroupPart): void;
  /** The merged groups, largest count first, then newest, then by keys. */
  result(): AuditGroup[];
}

/**
 * Creates a merger for groups keyed by `by`.
 *
 * @example
 * ```ts
 * import { createGroupMerger } from "./group_merge.ts";
 * const merger = createGroupMerger(["package"]);
 * const part = { keys: { package: "a" }, count: 1, max_cvss: null, projects: ["x"], cve_ids: [] };
 * merger.add({ ...part, last_ts: "2026-11-01T00:00:00.000Z" });
 * merger.add({ ...part, last_ts: "2026-11-02T00:00:00.000Z", projects: ["y"] });
 * merger.result()[0].projects; // ["x", "y"]
 * ```
 */
export function createGroupMerger(by: readonly AuditGroupKey[]): GroupMerger {
  const groups = new Map<string, Partial>();
  return {
    add(part) {
      const id = JSON.stringify(by.map((key) => part.keys[key] ?? null));
      const group = groups.get(id);
      if (!group) {
        groups.set(id, {
          keys: Object.fromEntries(by.map((key) => [key, part.keys[key] ?? null])),
          count: part.count,
          max_cvss: part.max_cvss,
          last_ts: part.last_ts,
          projects: new Set(part.projects),
          cve_ids: new Set(part.cve_ids),
        });
        return;
      }
      group.count += part.count;
      if (part.max_cvss !== null && (group.max_cvss === null || part.max_cvss > group.max_cvss)) {
        group.max_cvss = part.max_cvss;
      }
      if (part.last_ts > group.last_ts) group.last_ts = part.last_ts;
      for (const project of part.projects) group.projects.add(project);
      for (const id of part.cve_ids) group.cve_ids.add(id);
    },
    result() {
      return [...groups.entries()]
        .sort(([ia, a], [ib, b]) =>
          b.count - a.count || (a.last_ts < b.last_ts ? 1 : a.last_ts > b.last_ts ? -1 : 0) ||
          (ia < ib ? -1 : ia > ib ? 1 : 0)
        )
        .map(([, g]) => ({
          keys: g.keys,
          count: g.count,
          max_cvss: g.max_cvss,
          last_ts: g.last_ts,
          projects: [...g.projects].sort(),
          cve_ids: [...g.cve_ids].sort(),
        }));
    },
  };
}
