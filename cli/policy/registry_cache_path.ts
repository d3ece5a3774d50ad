/**
 * Where the client keeps the last registry snapshot (see
 * `offline_registry.ts`): a path computation only, so that building a client
 * loads nothing else.
 *
 * @module
 */

import { joinPath } from "./os_path.ts";

/** Revalidate the cached snapshot when it is older than this. */
export const REFRESH_AFTER_MS = 5 * 60_000;

/**
 * The cache file for a server: `$POLICY_CACHE_DIR`, else `$XDG_CACHE_HOME/policy`,
 * else `%LOCALAPPDATA%\policy` (Windows), else `~/.cache/policy`; one file
 * per server URL. Null when no directory can be named.
 */
export function registryCachePath(
  serverUrl: string,
  env: (name: string) => string | undefined,
): string | null {
  const xdg = env("XDG_CACHE_HOME");
  const local = env("LOCALAPPDATA");
  const home = env("HOME") ?? env("USERPROFILE");
  const dir = env("POLICY_CACHE_DIR") ??
    (xdg ? joinPath(xdg, "policy") : null) ??
    (local ? joinPath(local, "policy") : null) ??
    (home ? joinPath(joinPath(home, ".cache"), "policy") : null);
  if (!dir) return null;
  const key = serverUrl.replace(/^[a-z]+:\/\//i, "").replace(/[^A-Za-z0-9.-]+/g, "_");
  return joinPath(dir, `registry-${key}.json`);
}

/** Whether the cache at `path` was written or confirmed less than `maxAgeMs` ago. */
export function cacheIsFresh(path: string, maxAgeMs = REFRESH_AFTER_MS, now = Date.now()): boolean {
  try {
    const mtime = Deno.statSync(path).mtime?.getTime();
    return mtime !== undefined && now - mtime < maxAgeMs;
  } catch {
    return false;
  }
}
