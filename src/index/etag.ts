/**
 * Conditional requests on project pages (RFC 9110 §13.1.2): whether an
 * `If-None-Match` header names the page's current ETag. Pure.
 *
 * Hono's `etag()` middleware does the same, but reads and rewrites the
 * headers of every answer after it is built (which makes the runtime drop
 * the native response it prepared) and answers a 304 without `Vary`; the
 * page route checks before it builds anything instead.
 *
 * @module
 */

/**
 * Whether `ifNoneMatch` matches `etag` by the weak comparison GET uses:
 * `*`, or any listed tag equal to it with `W/` ignored on either side.
 *
 * @example
 * ```ts
 * matchesIfNoneMatch('W/"a", "b"', '"a"'); // true
 * matchesIfNoneMatch('"c"', '"a"'); // false
 * matchesIfNoneMatch(undefined, '"a"'); // false
 * ```
 */
export function matchesIfNoneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const tag of ifNoneMatch.split(",")) {
    const trimmed = tag.trim();
    if ((trimmed.startsWith("W/") ? trimmed.slice(2) : trimmed) === opaque) return true;
  }
  return false;
}
