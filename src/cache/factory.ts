/**
 * Picks the cache backend from the settings (SPEC §4, §6.4): `REDIS_URL`
 * unset → the embedded in-process LRU; `none` → no cache; `redis://…` or
 * `rediss://…` → Redis.
 *
 * @module
 */
import type { Settings } from "../config/settings.ts";
import type { Logger } from "../log/logger.ts";
import type { Cache } from "./types.ts";
import { createMemoryCache, type MemoryCacheOptions } from "./memory.ts";
import { createNoCache } from "./none.ts";
import { createRedisCache, type RedisCacheOptions } from "./redis.ts";

/** Options passed on to the chosen backend. */
export interface CacheFactoryOptions {
  memory?: MemoryCacheOptions;
  redis?: RedisCacheOptions;
}

/** Which backend a `REDIS_URL` value selects. */
export function cacheKind(settings: Pick<Settings, "REDIS_URL">): "memory" | "none" | "redis" {
  if (settings.REDIS_URL === undefined) return "memory";
  return settings.REDIS_URL === "none" ? "none" : "redis";
}

/**
 * Creates the lookup cache the settings ask for.
 *
 * @example
 * ```ts
 * import { loadSettings } from "../config/settings.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * const cache = createCache(loadSettings({ REDIS_URL: "none" }), log);
 * cache.health(); // "disabled"
 * ```
 */
export function createCache(
  settings: Pick<Settings, "REDIS_URL">,
  log: Logger,
  options: CacheFactoryOptions = {},
): Cache {
  switch (cacheKind(settings)) {
    case "memory":
      return createMemoryCache(options.memory);
    case "none":
      return createNoCache();
    case "redis":
      return createRedisCache(
        settings.REDIS_URL!,
        log.child({ component: "cache" }),
        options.redis,
      );
  }
}
