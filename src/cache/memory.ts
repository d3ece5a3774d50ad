/**
 * The embedded in-process cache (default when `REDIS_URL` is unset): a
 * least-recently-used map of JSON strings with a time-to-live per entry.
 * Values are stored serialised, so a caller can never mutate a cached value
 * and the semantics match the Redis cache.
 *
 * @module
 */
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
  const entries = new Map<string, { expiresAt: number; json: string }>();

  return {
    get<T>(key: string): Promise<T | undefined> {
      const entry = entries.get(key);
      if (entry === undefined) return Promise.resolve(undefined);
      entries.delete(key);
      if (entry.expiresAt <= now()) return Promise.resolve(undefined);
      entries.set(key, entry); // most recently used goes last
      return Promise.resolve(JSON.parse(entry.json) as T);
    },
    set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
      entries.delete(key);
      if (ttlSeconds <= 0 || value === undefined) return Promise.resolve();
      entries.set(key, { expiresAt: now() + ttlSeconds * 1000, json: JSON.stringify(value) });
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
