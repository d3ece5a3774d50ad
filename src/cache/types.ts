/**
 * The lookup cache: JSON values with a time-to-live. Implementations:
 * `memory.ts` (in-process LRU, default), `redis.ts`, `none.ts`.
 *
 * @module
 */

/** Health of the cache as reported by `/health`. */
export type CacheHealth = "ok" | "degraded" | "disabled";

/** A JSON cache. Implementations never throw: a broken backend behaves like a miss. */
export interface Cache {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  health(): CacheHealth;
  close(): Promise<void>;
}
