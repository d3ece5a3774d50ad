/**
 * Whole days since an upload, the one clock measure the release cooldown,
 * the new-project rule and "established" look-alikes share.
 *
 * @module
 */

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/**
 * Whole days between an upload time and now; null when the time is unknown or unreadable.
 *
 * @example
 * ```ts
 * import { releaseAgeDays } from "./release_age.ts";
 * releaseAgeDays("2026-11-20T12:00:00Z", new Date("2026-11-23T13:00:00Z")); // 3
 * ```
 */
export function releaseAgeDays(releasedAt: string | null | undefined, now: Date): number | null {
  if (!releasedAt) return null;
  const ms = Date.parse(releasedAt);
  return Number.isNaN(ms) ? null : Math.max(0, Math.floor((now.getTime() - ms) / DAY_MS));
}
