/**
 * Settings area `cache`: the lookup cache backend and its time-to-live.
 *
 * @module
 */
import { z } from "zod";
import { defineArea } from "../config/area.ts";
import { nonNegativeVar } from "../config/kinds.ts";

/** Typed options of the cache. */
export interface CacheOptions {
  /** Unset = embedded in-process cache; `none` disables caching. */
  redisUrl: string | null;
  ttlSeconds: number;
}

/** The `cache` area. */
export const cacheArea = defineArea({
  name: "cache",
  variables: {
    REDIS_URL: z
      .string()
      .refine((v) => v === "none" || /^rediss?:\/\//.test(v), {
        message: "expected redis://…, rediss://… or none",
      })
      .optional(),
    CACHE_TTL_SECONDS: nonNegativeVar.default(21600),
  },
  options: (v): CacheOptions => ({
    redisUrl: v.REDIS_URL ?? null,
    ttlSeconds: v.CACHE_TTL_SECONDS,
  }),
});
