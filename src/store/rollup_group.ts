/**
 * `AuditStore.group()` answered from the rollups where a cube serves the
 * call: whole buckets of the window come from the stored bucket groups
 * (materialised on first use by the backend), the rest from the audit log,
 * and everything is merged exactly. Both backends share this; they only
 * differ in how they store and read buckets ({@link RollupBackend}).
 *
 * @module
 */
import { createGroupMerger } from "./group_merge.ts";
import { type Cube, cubeFor, type CubeKeys, keyPredicate } from "./rollup_cubes.ts";
import { bucketsIn, COMPLETE_AFTER_MS, DAY_GRAINS, type Grain, planWindow } from "./rollup_plan.ts";
import type { AuditFilter, AuditGroup, AuditGroupKey } from "./types.ts";

/** An audit group, with its bucket start when grouped per bucket (materialising a cube). */
export interface BucketedGroup extends AuditGroup {
  bucket?: string;
}

/**
 * The stored groups of one cube key over a range of buckets, added up by
 * the backend's SQL (per UTC day when asked).
 */
export interface StoredGroup {
  /** JSON array of the cube's key values, in the order of `cube.by`. */
  key: string;
  /** The UTC day (`YYYY-MM-DD`) when read per day, else null. */
  day: string | null;
  count: number;
  max_cvss: number | null;
  last_ts: string;
  /** The distinct project lists of the buckets, each a JSON array. */
  projects: string[];
  /** The distinct CVE lists of the buckets, each a JSON array. */
  cve_ids: string[];
}

/** Consecutive buckets of one grain. */
export interface BucketRange {
  grain: Grain;
  /** Bucket starts, oldest first. */
  buckets: string[];
}

/** What a backend provides for rollup reads. */
export interface RollupBackend {
  /** The audit log's own answer (no rollups). */
  rawGroup(filter: AuditFilter, by: AuditGroupKey[]): Promise<AuditGroup[]>;
  /** The newest `ts` of the audit log (ISO-8601), or null when it is empty. */
  newestTs(): Promise<string | null>;
  /**
   * Materialises the missing buckets of `cube` in `ranges` (each of one
   * grain, consecutive, oldest first), then returns their stored groups
   * added up per cube key, and per day when `perDay`.
   */
  read(cube: Cube, ranges: BucketRange[], perDay: boolean): Promise<StoredGroup[]>;
}

const canonical = (iso: string | undefined) =>
  iso !== undefined && !Number.isNaN(Date.parse(iso)) && new Date(iso).toISOString() === iso;

/** Parses JSON texts, once per distinct text (bucket groups repeat the same project lists). */
function memoParse(): (text: string) => unknown {
  const seen = new Map<string, unknown>();
  return (text) => {
    let value = seen.get(text);
    if (value === undefined) seen.set(text, value = JSON.parse(text));
    return value;
  };
}

/**
 * Answers `group(filter, by)`: from the rollups when a cube serves it and
 * the window holds whole buckets, else from the audit log.
 */
export async function rollupGroup(
  backend: RollupBackend,
  filter: AuditFilter,
  by: AuditGroupKey[],
): Promise<AuditGroup[]> {
  const cube = canonical(filter.since) && (filter.until === undefined || canonical(filter.until))
    ? cubeFor(filter, by)
    : undefined;
  if (!cube) return backend.rawGroup(filter, by);
  const newest = await backend.newestTs();
  if (newest === null) return [];
  const to = filter.until === undefined ? Infinity : Date.parse(filter.until);
  const complete = Date.parse(newest) - COMPLETE_AFTER_MS;
  const perDay = by.includes("day");
  const plan = perDay
    ? planWindow(Date.parse(filter.since!), to, complete, DAY_GRAINS)
    : planWindow(Date.parse(filter.since!), to, complete);
  if (plan.buckets.length === 0) return backend.rawGroup(filter, by);

  const iso = (ms: number) => new Date(ms).toISOString();
  const ranges = plan.buckets.map((b) => ({ grain: b.grain, buckets: bucketsIn(b.span, b.grain) }));
  const [stored, raw] = await Promise.all([
    backend.read(cube, ranges, perDay),
    Promise.all(plan.raw.map((span) => {
      const { until: _, ...rest } = filter;
      const piece = { ...rest, since: iso(span.from) };
      return backend.rawGroup(
        Number.isFinite(span.to) ? { ...piece, until: iso(span.to) } : piece,
        by,
      );
    })),
  ]);
  const merger = createGroupMerger(by);
  for (const groups of raw) for (const group of groups) merger.add(group);
  const matches = keyPredicate(cube, filter);
  const parse = memoParse();
  const union = (lists: string[]) => lists.flatMap((list) => parse(list) as string[]);
  for (const row of stored) {
    const values = parse(row.key) as Array<string | null>;
    const keys: CubeKeys = {};
    cube.by.forEach((key, i) => (keys[key] = values[i]));
    if (!matches(keys)) continue;
    keys.day = row.day;
    merger.add({
      keys,
      count: row.count,
      max_cvss: row.max_cvss,
      last_ts: row.last_ts,
      projects: union(row.projects),
      cve_ids: union(row.cve_ids),
    });
  }
  return merger.result();
}
