/**
 * Whether a version falls inside the affected versions of an OSV record
 * (explicit `versions` list or ECOSYSTEM ranges, PEP 440 ordering).
 *
 * @module
 */
import { compare, valid } from "@renovatebot/pep440";
import type { AffectedVersions } from "./types.ts";

export { versionComparer } from "./version_key.ts";

/** A PEP 440 comparison; `compare()` by default, {@link versionComparer} for many versions. */
type Compare = (a: string, b: string) => number;

function inRange(
  events: AffectedVersions["ranges"][number]["events"],
  version: string,
  cmp: Compare,
): boolean {
  // Events are processed in version order: an `introduced` opens a span,
  // `fixed` closes it exclusively, `last_affected` inclusively.
  let affected = false;
  const sorted = [...events].sort((a, b) => eventVersionCompare(a, b, cmp));
  for (const event of sorted) {
    if (event.introduced !== undefined) {
      if (event.introduced === "0" || cmp(version, event.introduced) >= 0) affected = true;
    } else if (event.fixed !== undefined) {
      if (cmp(version, event.fixed) >= 0) affected = false;
    } else if (event.last_affected !== undefined) {
      if (cmp(version, event.last_affected) > 0) affected = false;
    } else if (event.limit !== undefined && event.limit !== "*") {
      if (cmp(version, event.limit) >= 0) affected = false;
    }
  }
  return affected;
}

function eventVersion(e: AffectedVersions["ranges"][number]["events"][number]): string {
  return e.introduced ?? e.fixed ?? e.last_affected ?? e.limit ?? "0";
}

function eventVersionCompare(
  a: AffectedVersions["ranges"][number]["events"][number],
  b: AffectedVersions["ranges"][number]["events"][number],
  cmp: Compare,
): number {
  const va = eventVersion(a);
  const vb = eventVersion(b);
  if (va === "0") return vb === "0" ? 0 : -1;
  if (vb === "0") return 1;
  return cmp(va, vb);
}

function safeCompare(a: string, b: string): number {
  if (valid(a) === null || valid(b) === null) return a === b ? 0 : a < b ? -1 : 1;
  return compare(a, b);
}

/**
 * Whether `version` is affected according to any of the entries. Pass a
 * {@link versionComparer} when deciding many versions (each parsed once).
 *
 * @example
 * ```ts
 * isAffected([{ versions: [], ranges: [{ events: [{ introduced: "0" }, { fixed: "2.0" }] }] }], "1.5"); // true
 * ```
 */
export function isAffected(
  affected: AffectedVersions[],
  version: string,
  cmp: Compare = safeCompare,
): boolean {
  return affected.some((entry) =>
    entry.versions.includes(version) ||
    entry.ranges.some((range) => inRange(range.events, version, cmp))
  );
}
