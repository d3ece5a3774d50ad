/**
 * Picks the cache backend from the settings (SPEC §4, §6.4): `REDIS_URL`
 * unset → the embedded in-process LRU; `none` → no cache; `redis://…` or
 * `rediss://…` → Redis.
 *
 * @module
 */
import type { Logger } from "../log/logger.ts";
import type { CacheOptions } from "./settings.ts";
import type { Cache } from "./types.ts";
import { createMemoryCache, type MemoryCacheOptions } from "./memory.ts";
import { createNoCache } from "./none.ts";
import { createRedisCache, type RedisCacheOptions } from "./redis.ts";

/** Options passed on to the chosen backend. */
export interface CacheFactoryOptions {
  memory?: MemoryCacheOptions;
  redis?: RedisCacheOptions;
}

/** Which backend the `cache` area's `redisUrl` (`REDIS_URL`) selects. */
export function cacheKind(options: Pick<CacheOptions, "redisUrl">): "memory" | "none" | "redis" {
  if (options.redisUrl === null) return "memory";
  return options.redisUrl === "none" ? "none" : "redis";
}

/**
 * Creates the lookup cache the `cache` area's options ask for.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * const cache = createCache({ redisUrl: "none" }, log);
 * cache.health(); // "disabled"
 * ```
 */
export function createCache(
  cacheOptions: Pick<CacheOptions, "redisUrl">,
  log: Logger,
  options: CacheFactoryOptions = {},
): Cache {
  switch (cacheKind(cacheOptions)) {
    case "memory":
      return createMemoryCache(options.memory);
    case "none":
      return createNoCache();
    case "redis":
      return createRedisCache(
        cacheOptions.redisUrl!,
        log.child({ component: "cache" }),
        options.redis,
      );
  }
}
