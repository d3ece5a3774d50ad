/**
 * The embedded in-process cache (default when `REDIS_URL` is unset): a
 * least-recently-used map of JSON values with a time-to-live per entry.
 * A value goes through a JSON round trip when it is stored (so the semantics
 * match the Redis cache) and is then deeply frozen: every hit returns the
 * same read-only value, with no parsing on the hot path, and no caller can
 * change what the next one reads (rule 2 of `src/core/decision_cache.ts`).
 *
 * @module
 */
import { share } from "../core/decision_cache.ts";
import type { Cache } from "./types.ts";

/** Options of {@link createMemoryCache}. */
export interface MemoryCacheOptions {
  /** Entries kept before the least recently used is evicted. Default 10,000. */
  maxEntries?: number;
  /** Clock in milliseconds, injectable for tests. Default `Date.now`. */
  now?: () => number;
}

/**
 * Creates an in-process LRU cache with TTL. A TTL of 0 (or less) stores nothing.
 *
 * @example
 * ```ts
 * const cache = createMemoryCache({ maxEntries: 100 });
 * await cache.set("k", { a: 1 }, 60);
 * await cache.get<{ a: number }>("k"); // { a: 1 }
 * ```
 */
export function createMemoryCache(options: MemoryCacheOptions = {}): Cache {
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { expiresAt: number; value: unknown }>();

  return {
    get<T>(key: string): Promise<T | undefined> {
      const entry = entries.get(key);
      if (entry === undefined) return Promise.resolve(undefined);
      entries.delete(key);
      if (entry.expiresAt <= now()) return Promise.resolve(undefined);
      entries.set(key, entry); // most recently used goes last
      return Promise.resolve(entry.value as T);
    },
    set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
      entries.delete(key);
      if (ttlSeconds <= 0 || value === undefined) return Promise.resolve();
      entries.set(key, {
        expiresAt: now() + ttlSeconds * 1000,
        value: share(JSON.parse(JSON.stringify(value))),
      });
      while (entries.size > maxEntries) {
        entries.delete(entries.keys().next().value!);
      }
      return Promise.resolve();
    },
    health: () => "ok",
    close(): Promise<void> {
      entries.clear();
      return Promise.resolve();
    },
  };
}
