/**
 * How a report window splits into rollup buckets and raw pieces: whole
 * weeks are read from week rollups, whole UTC days around them from day
 * rollups, whole hours at the window's edges from hour rollups, and what is
 * left (less than an hour at each end, plus everything after the rollup
 * horizon) from the audit log itself.
 *
 * @module
 */

/** Bucket sizes of the rollups, largest first; each divides the one before. */
export const GRAINS = [
  // Weeks start on the epoch's weekday (Thursday 00:00 UTC): only the alignment matters.
  { name: "week", ms: 7 * 86_400_000 },
  { name: "day", ms: 86_400_000 },
  { name: "hour", ms: 3_600_000 },
] as const;

/** A bucket size of the rollups. */
export type Grain = typeof GRAINS[number]["name"];

/** The grains that never span two UTC days (for calls grouped by day). */
export const DAY_GRAINS: readonly Grain[] = ["day", "hour"];

/**
 * How long after a bucket ends the newest audit row must be before the
 * bucket counts as complete. Rows are stamped with the inserting instance's
 * clock, so this bounds the clock skew between instances that the rollups
 * tolerate without a late row going unnoticed (docs/performance.md).
 */
export const COMPLETE_AFTER_MS = 5 * 60_000;

/** Half-open time range `[from, to)` in epoch milliseconds. */
export interface Span {
  from: number;
  to: number;
}

/** A window split into bucket ranges per grain and raw pieces. */
export interface WindowPlan {
  /** Bucket ranges, oldest first; every bucket inside a range is whole. */
  buckets: Array<{ grain: Grain; span: Span }>;
  /** Pieces to read from the audit log, at most two. */
  raw: Span[];
}

/** The length of a bucket of `grain` in seconds. */
export function grainSeconds(grain: Grain): number {
  return GRAINS.find((g) => g.name === grain)!.ms / 1000;
}

/** The start of the bucket of `grain` holding `ms`, as stored: ISO-8601 text. */
export function bucketOf(ms: number, grain: Grain): string {
  const size = GRAINS.find((g) => g.name === grain)!.ms;
  return new Date(Math.floor(ms / size) * size).toISOString();
}

/** The end (exclusive) of the bucket of `grain` starting at `bucket`, as ISO-8601 text. */
export function bucketEnd(bucket: string, grain: Grain): string {
  return new Date(Date.parse(bucket) + grainSeconds(grain) * 1000).toISOString();
}

/** The latest end of the buckets in `ranges` (ISO-8601), or "" when there are none. */
export function rangesEnd(ranges: ReadonlyArray<{ grain: Grain; buckets: string[] }>): string {
  return ranges.reduce((end, { grain, buckets }) => {
    const last = buckets.length ? bucketEnd(buckets.at(-1)!, grain) : "";
    return last > end ? last : end;
  }, "");
}

/** The bucket starts of `grain` inside `span` (whose ends are aligned to the grain). */
export function bucketsIn(span: Span, grain: Grain): string[] {
  const size = GRAINS.find((g) => g.name === grain)!.ms;
  const out: string[] = [];
  for (let t = span.from; t < span.to; t += size) out.push(new Date(t).toISOString());
  return out;
}

/**
 * Splits `[from, complete)` into whole buckets of `grains` (the largest
 * that fit first) and raw pieces; `[complete, to)` is raw. `to` may be
 * `Infinity`.
 *
 * @example
 * ```ts
 * import { planWindow } from "./rollup_plan.ts";
 * const h = 3_600_000;
 * planWindow(0, 50 * h, 49.5 * h).raw; // [{ from: 49 * h, to: 50 * h }]
 * ```
 */
export function planWindow(
  from: number,
  to: number,
  complete: number,
  grains: readonly Grain[] = GRAINS.map((g) => g.name),
): WindowPlan {
  const sizes = GRAINS.filter((g) => grains.includes(g.name));
  const plan: WindowPlan = { buckets: [], raw: [] };
  const end = Math.min(to, complete);
  const split = (span: Span, level: number) => {
    if (span.from >= span.to) return;
    const grain = sizes[level];
    if (!grain) {
      const last = plan.raw.at(-1);
      if (last && last.to === span.from) last.to = span.to;
      else plan.raw.push({ ...span });
      return;
    }
    const start = Math.ceil(span.from / grain.ms) * grain.ms;
    const stop = Math.floor(span.to / grain.ms) * grain.ms;
    if (start >= stop) return split(span, level + 1);
    split({ from: span.from, to: start }, level + 1);
    plan.buckets.push({ grain: grain.name, span: { from: start, to: stop } });
    split({ from: stop, to: span.to }, level + 1);
  };
  if (end > from) split({ from, to: end }, 0);
  const tail = { from: Math.max(from, end), to };
  if (tail.from < tail.to) {
    const last = plan.raw.at(-1);
    if (last && last.to === tail.from) last.to = tail.to;
    else plan.raw.push(tail);
  }
  return plan;
}
